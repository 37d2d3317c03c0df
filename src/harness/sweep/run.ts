/**
 * Evaluating every point of a sweep, then choosing among them by cross-validation.
 *
 * When no point touches and all write back as the base policy does, the store evolves the same
 * under every point, so each (scenario, seed) timeline is played once and each ask is ranked
 * under every point over the same store state, with the ask's relevance scored once (the one
 * pass). Otherwise later asks depend on earlier retrievals, and each point runs its own trials.
 * Either way every ranking goes through the memory system's one retrieval path.
 */
import { retrievalPolicySchema } from "../../memory/index.js";
import type { RetrievalPolicy, TokenCounter } from "../../memory/index.js";
import { userError } from "../../shared/errors.js";
import { byCodeUnit } from "../../shared/order.js";
import type { Experiment } from "../experiment/load.js";
import { deepestRankRead, metricReader } from "../metrics.js";
import type { AskResult, SweepResults, Trial } from "../results/types.js";
import type { TrialPool } from "../runner/pool.js";
import type { RunSample } from "../runner/sample.js";
import { type EmbedTexts, packPending, runTasks } from "../runner/run.js";
import type { TrialInput } from "../runner/trial.js";
import type { TrialTask } from "../runner/worker.js";
import { assignFolds } from "./folds.js";
import type { ResolvedSweep } from "../experiment/sweep-points.js";
import { crossValidate } from "./select.js";

const round = (x: number) => Math.round(x * 1e6) / 1e6;

export interface SweepRunOptions {
  workers?: number;
  tokenizer?: TokenCounter;
  embed?: EmbedTexts;
  /** The token-count cache file returned blocks are priced through (see RunOptions.tokenCache). */
  tokenCache?: string;
  /** Worker threads shared with the command's other runs (see RunOptions.pool). */
  pool?: TrialPool;
  /** Evaluate the points on these scenarios only, taking the others' values from the recording (see RunOptions.sample). */
  sample?: RunSample;
}

/** The sweep of `experiment` (which must have one): every point's objective per ask, and the selection. */
export async function runSweep(experiment: Experiment, options: SweepRunOptions = {}): Promise<SweepResults> {
  const sweep = experiment.sweep;
  if (sweep === undefined) throw new Error(`experiment "${experiment.spec.name}" has no sweep`);
  const scenarios = [...experiment.scenarios].sort((a, b) => byCodeUnit(a.spec.name, b.spec.name)).map((s) => s.spec);
  if (scenarios.length < 2) {
    throw userError(`${experiment.file}: at sweep: cross-validation by scenario needs at least two scenarios, and the experiment has ${scenarios.length}`);
  }
  const { spec } = experiment;
  // Only the objective is kept, so gold memories need ranking only as deep as it reads.
  const within = deepestRankRead(sweep.spec.objective.metric);
  const input = (scenario: TrialInput["scenario"], seed: number, ablation: string, policy: RetrievalPolicy): TrialInput => ({
    scenario,
    ablation,
    system: { type: "recollect", policy },
    writeBack: policy.writeBack,
    budget: null,
    ...(sweep.embeddingModel === undefined ? {} : { embeddingModel: sweep.embeddingModel }),
    seed,
    variation: spec.variation,
    matchSource: spec.matchSource,
    detail: false,
    ...(within === undefined ? {} : { locateWithin: within }),
  });
  const recorded = recordedValues(sweep, scenarios, options.sample);
  const run = scenarios.filter((s) => recorded === undefined || options.sample!.scenarios.has(s.name));
  const inputs = sweep.sharedTimeline
    ? run.flatMap((scenario) => spec.seeds.map((seed) => input(scenario, seed, "sweep", sweep.base)))
    : run.flatMap((scenario) => sweep.points.flatMap((point) => spec.seeds.map((seed) => input(scenario, seed, point.id, point.policy))));
  const refs = await packPending(inputs, options.tokenizer, options.embed);
  const under = sweep.sharedTimeline ? sweep.points.map((p) => ({ name: p.id, policy: p.policy })) : undefined;
  const tasks: TrialTask[] = inputs.map((i) => ({ ...i, scenario: refs.get(i.scenario.name)!, ...(under ? { under } : {}) }));
  const trials: Trial[] = [];
  await runTasks(tasks, options.workers, (done) => trials.push(...done), options.tokenCache, options.pool);

  const values = objectiveValues(sweep, scenarios, new Set(run.map((s) => s.name)), spec.seeds, trials, recorded);
  const clusterOf = scenarios.flatMap((s) => s.steps.flatMap((step) => (step.ask ? [s.name] : [])));
  const folds = assignFolds(clusterOf, sweep.spec.folds, sweep.spec.foldSeed);
  const selection = crossValidate(
    sweep.points.map((p) => values[p.id]),
    clusterOf,
    folds,
  );
  const id = (index: number) => sweep.points[index].id;
  return {
    parameters: sweep.parameters,
    objective: sweep.spec.objective,
    evaluation: sweep.sharedTimeline ? "one-pass" : "full-trials",
    touchOff: sweep.points.every((p) => !p.policy.touch),
    foldSeed: sweep.spec.foldSeed,
    // Parsed so that keys come in the schema's order, as they do when the file is read back.
    base: retrievalPolicySchema.parse(sweep.base),
    points: sweep.points.map((p) => ({ id: p.id, values: p.values, label: p.label })),
    values,
    selection: {
      folds: selection.folds.map((f) => ({
        heldOut: f.heldOut,
        chosen: id(f.chosen),
        training: round(f.training),
        heldOutScore: round(f.heldOutScore),
        items: f.items,
      })),
      chosen: id(selection.chosen),
      chosenScore: round(selection.chosenScore),
    },
  };
}

/** An ask by its scenario and id, as the recorded values are looked up. */
const askKey = (scenario: string, ask: string) => `${scenario}\u0000${ask}`;

/**
 * The recording's values of every point, each ask's by scenario and ask id, when a sample takes
 * the other scenarios' values from it. Undefined for a full evaluation, and when the recording
 * cannot stand in: it has no sweep, lacks a point's values, or lacks an ask of a scenario left
 * out of the sample (then every scenario is evaluated).
 */
function recordedValues(sweep: ResolvedSweep, scenarios: readonly TrialInput["scenario"][], sample: RunSample | undefined): Map<string, Map<string, number>> | undefined {
  const recorded = sample?.recorded;
  if (recorded?.sweep === undefined) return undefined;
  const asks = recorded.experiment.scenarios.flatMap((s) => s.asks.map((a) => askKey(s.name, a.id)));
  if (sweep.points.some((p) => recorded.sweep!.values[p.id]?.length !== asks.length)) return undefined;
  const held = new Set(asks);
  const needed = scenarios.filter((s) => !sample!.scenarios.has(s.name)).flatMap((s) => s.steps.flatMap((step) => (step.ask ? [askKey(s.name, step.ask.id)] : [])));
  if (needed.some((ask) => !held.has(ask))) return undefined;
  return new Map(sweep.points.map((p) => [p.id, new Map(asks.map((ask, i) => [ask, recorded.sweep!.values[p.id]![i]!]))]));
}

/**
 * Per point, the objective of each ask (scenarios, then asks, in order), its seeds averaged; an
 * ask of a scenario that was not `evaluated` has the value `recorded` holds for it.
 */
function objectiveValues(
  sweep: ResolvedSweep,
  scenarios: TrialInput["scenario"][],
  evaluated: ReadonlySet<string>,
  seeds: number[],
  trials: Trial[],
  recorded: Map<string, Map<string, number>> | undefined,
): Record<string, number[]> {
  const { metric, tokenPenalty } = sweep.spec.objective;
  const byKey = new Map<string, Map<string, AskResult>>();
  for (const trial of trials) byKey.set(`${trial.scenario}\u0000${trial.ablation}\u0000${trial.seed}`, new Map(trial.asks.map((a) => [a.ask, a])));
  const read = metricReader(metric);
  const objective = (result: AskResult) => (read(result) ?? 0) - tokenPenalty * result.tokens;
  return Object.fromEntries(
    sweep.points.map((point) => [
      point.id,
      scenarios.flatMap((scenario) =>
        scenario.steps.flatMap((step) => {
          if (!step.ask) return [];
          const ask = step.ask.id;
          if (!evaluated.has(scenario.name)) return [recorded!.get(point.id)!.get(askKey(scenario.name, ask))!];
          const sum = seeds.reduce((total, seed) => total + objective(byKey.get(`${scenario.name}\u0000${point.id}\u0000${seed}`)!.get(ask)!), 0);
          return [round(sum / seeds.length)];
        }),
      ),
    ]),
  );
}

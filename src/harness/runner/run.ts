import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { loadGemmaTokenizer } from "../../memory/index.js";
import type { TokenCounter } from "../../memory/index.js";
import type { Experiment } from "../experiment/load.js";
import { trialKey } from "../results/trial-key.js";
import type { Trial } from "../results/types.js";
import { codeVersion } from "./code-version.js";
import { Journal } from "./journal.js";
import { packScenarios, type ScenarioRef } from "./pack.js";
import { embeddedTexts } from "./embedded-texts.js";
import { hasLiteralVectors } from "../scenario/validate.js";
import { memoisedCounter } from "./token-counts.js";
import type { TrialInput } from "./trial.js";
import { TrialPool } from "./pool.js";
import { recordedOutsideSample, type RunSample } from "./sample.js";
import { type TaskBatch, ThreadState, type TrialOutcome, type TrialTask } from "./worker.js";
import { userError } from "../../shared/errors.js";
import { byCodeUnit } from "../../shared/order.js";

export interface RunOptions {
  /** Worker threads; 1 runs in this thread. Results do not depend on it. */
  workers?: number;
  /** Where interrupted runs keep their completed trials; no journal when absent. */
  journalDir?: string;
  /** Run only shard `index` of `count` (1-based), for splitting a grid across machines. */
  shard?: { index: number; count: number };
  onProgress?: (done: number, total: number, trial: Trial | undefined) => void;
  /** Told, before any trial runs, how many of the run's trials its journal already holds (only when some). */
  onResume?: (journalled: number, total: number, journal: string) => void;
  /** Told about journal lines that are skipped because they are damaged; the run goes on. */
  onWarning?: (message: string) => void;
  /** Prices memory lines; the pinned Gemma tokenizer by default. Each distinct line is counted once per run. */
  tokenizer?: TokenCounter;
  /** A system that fails skips its trial (scored as empty retrievals, counted in the report) instead of stopping the run. */
  skipOnSystemError?: boolean;
  /** Embeds texts under a model, through the cache; needed when a trial ranks by embedding. */
  embed?: EmbedTexts;
  /** The token-count cache file that workers price returned blocks through; without it, each thread counts its own. */
  tokenCache?: string;
  /** Worker threads shared with the command's other runs (its `threads`, not `workers`, then count); the run starts its own when absent. */
  pool?: TrialPool;
  /** Run only these scenarios, taking every other scenario's trials from the recording (a quick check; see RunSample). */
  sample?: RunSample;
}

/** Vectors of `texts` under `model`, one each, in order (see model/embedding: the cached embedders). */
export type EmbedTexts = (model: string, texts: readonly string[]) => Promise<Float32Array[]>;

/** Every (scenario, ablation, seed) of an experiment, in the canonical order of its results. */
export function trialInputs(experiment: Experiment): TrialInput[] {
  const { spec } = experiment;
  const scenarios = [...experiment.scenarios].sort((a, b) => byCodeUnit(a.spec.name, b.spec.name));
  return scenarios.flatMap((scenario) =>
    experiment.ablations.flatMap((ablation) =>
      spec.seeds.map((seed) => ({
        scenario: scenario.spec,
        ablation: ablation.name,
        system: ablation.system,
        writeBack: ablation.writeBack,
        budget: ablation.budget,
        ...(ablation.embeddingModel === undefined ? {} : { embeddingModel: ablation.embeddingModel }),
        seed,
        variation: spec.variation,
        matchSource: spec.matchSource,
        detail: spec.detail,
      })),
    ),
  );
}

const inputKey = (input: TrialInput) => trialKey({ scenario: input.scenario.name, ablation: input.ablation, seed: input.seed });

/** A shard takes every count-th trial, so shards are balanced across scenarios of unequal size. */
export function shardOf<T>(items: T[], shard: RunOptions["shard"]): T[] {
  if (!shard) return items;
  return items.filter((_, i) => i % shard.count === shard.index - 1);
}

/**
 * Where an interrupted run of `experiment` keeps its trials. The name carries a hash of the
 * experiment's inputs and of the code that runs them, so a journal is only resumed by both.
 */
export function journalFile(dir: string, experiment: Experiment, shard?: RunOptions["shard"]): string {
  const version = createHash("sha256").update(experiment.hash).update(codeVersion()).digest("hex").slice(0, 16);
  const shardTag = shard ? `-shard${shard.index}of${shard.count}` : "";
  return join(dir, `${experiment.spec.name}-${version}${shardTag}.ndjson`);
}

/**
 * Removes a finished run's journal. The caller does this once the results are safely on disk, so
 * a failure between the last trial and the write still leaves the run resumable.
 */
export function removeJournal(dir: string, experiment: Experiment, shard?: RunOptions["shard"]): void {
  new Journal(journalFile(dir, experiment, shard)).remove();
}

export async function runTrials(experiment: Experiment, options: RunOptions = {}): Promise<Trial[]> {
  const skip = options.skipOnSystemError === true;
  const all = shardOf(trialInputs(experiment), options.shard).map((input) => (skip ? { ...input, skipOnSystemError: true } : input));
  // A sample's other scenarios are neither run nor counted in its progress. A trial the recording
  // lacks runs, and so does one whose asks are not this scenario's (the importer changed since).
  const taken = recordedOutsideSample(options.sample);
  for (const input of all) {
    const trial = taken.get(inputKey(input));
    if (trial !== undefined && !askIdsMatch(trial, input)) taken.delete(inputKey(input));
  }
  const inputs = all.filter((input) => !taken.has(inputKey(input)));
  const journal = options.journalDir ? new Journal(journalFile(options.journalDir, experiment, options.shard)) : undefined;
  const warn = options.onWarning ?? (() => {});
  const done = journal?.load(warn) ?? new Map<string, Trial>();
  for (const input of inputs) {
    const trial = done.get(inputKey(input));
    if (trial !== undefined && !askIdsMatch(trial, input)) {
      warn(`${journal!.file}: the journalled trial ${input.scenario.name} / ${input.ablation} / seed ${input.seed} does not hold this scenario's asks; it runs again`);
      done.delete(inputKey(input));
    }
  }
  const pending = inputs.filter((input) => !done.has(inputKey(input)));
  let finished = inputs.length - pending.length;
  if (finished > 0) options.onResume?.(finished, inputs.length, journal!.file);

  const complete = (trial: Trial) => {
    journal?.append(trial);
    done.set(trialKey(trial), trial);
    options.onProgress?.(++finished, inputs.length, trial);
  };

  const refs = await packPending(pending, options.tokenizer, options.embed);
  options.onProgress?.(finished, inputs.length, undefined);
  const task = (input: TrialInput): TrialTask => ({ ...input, scenario: refs.get(input.scenario.name)! });
  await runTasks(pending.map(task), options.workers, (trials) => trials.forEach(complete), options.tokenCache, options.pool);

  // Canonical order, whatever order the workers finished in.
  return all.map((input) => (done.get(inputKey(input)) ?? taken.get(inputKey(input))) as Trial);
}

/** Batches a worker takes at a time, at most: enough per worker to even out batches of unequal cost. */
const BATCHES_PER_WORKER = 8;
/** Trials in one batch, at most, so progress and the journal still move often in a large run. */
const MAX_BATCH = 64;

/**
 * Splits tasks into batches of neighbouring tasks (trials of one scenario stay together, so a
 * worker decodes it once), in their order.
 */
export function batchesOf<T>(tasks: readonly T[], workers: number): T[][] {
  const size = Math.max(1, Math.min(MAX_BATCH, Math.ceil(tasks.length / (workers * BATCHES_PER_WORKER))));
  const batches: T[][] = [];
  for (let start = 0; start < tasks.length; start += size) batches.push(tasks.slice(start, start + size));
  return batches;
}

/**
 * Runs trial tasks on worker threads (in this thread for one worker), several to a message,
 * telling `done` each batch's trials as they finish, in whatever order they finish. The threads
 * are `pool`'s when one is given, else a pool of `workerCount` started and closed for this call.
 * Returned blocks are priced through the token-count cache file `tokenCache` when one is given.
 */
export async function runTasks(tasks: TrialTask[], workerCount: number | undefined, done: (trials: Trial[]) => void, tokenCache?: string, pool?: TrialPool): Promise<void> {
  const workers = Math.max(1, Math.min(pool?.threads ?? workerCount ?? availableParallelism(), tasks.length));
  const batches: TaskBatch[] = batchesOf(tasks, workers).map((batch) => ({ tasks: batch, ...(tokenCache === undefined ? {} : { tokenCache }) }));
  if (workers <= 1) {
    const state = new ThreadState();
    try {
      for (const batch of batches) done(await state.runBatch(batch));
    } finally {
      await state.shutdown();
    }
    return;
  }
  const threads = pool ?? new TrialPool(workers);
  try {
    await threads.run(batches, (outcome) => done(trialsOf(outcome)));
  } finally {
    if (pool === undefined) await threads.close();
  }
}

function trialsOf(outcome: TrialOutcome): Trial[] {
  if ("userError" in outcome) throw userError(outcome.userError);
  return outcome.trials;
}

/** A journalled trial belongs to this run only if it answers exactly the scenario's asks, in order. */
function askIdsMatch(trial: Trial, input: TrialInput): boolean {
  const expected = input.scenario.steps.flatMap((step) => (step.ask ? [step.ask.id] : []));
  return trial.asks.length === expected.length && trial.asks.every((a, i) => a.ask === expected[i]);
}

/**
 * The scenarios that still have trials to run, packed for the workers with their lines' token
 * counts and, for trials that rank by embedding, their texts' vectors. Counting and embedding
 * happen here, once per distinct line or text for the whole run, rather than in each worker for
 * each trial.
 */
export async function packPending(pending: TrialInput[], tokenizer?: TokenCounter, embed?: EmbedTexts): Promise<Map<string, ScenarioRef>> {
  if (pending.length === 0) return new Map();
  const entries = new Map<string, { spec: TrialInput["scenario"]; writeBack: boolean; models: Set<string> }>();
  for (const input of pending) {
    const entry = entries.get(input.scenario.name) ?? { spec: input.scenario, writeBack: false, models: new Set<string>() };
    entry.writeBack ||= input.writeBack;
    if (input.embeddingModel !== undefined && !hasLiteralVectors(input.scenario)) entry.models.add(input.embeddingModel);
    entries.set(input.scenario.name, entry);
  }
  const vectors = await embedScenarios([...entries.values()], embed);
  const packed = [...entries.values()].map(({ spec, writeBack }) => ({ spec, writeBack, vectors: vectors.get(spec.name) }));
  return packScenarios(packed, memoisedCounter(tokenizer ?? (await loadGemmaTokenizer())));
}

/** Per scenario, per model, the vector of every text its trials embed: each distinct text embedded once per model. */
async function embedScenarios(
  entries: readonly { spec: TrialInput["scenario"]; writeBack: boolean; models: Set<string> }[],
  embed: EmbedTexts | undefined,
): Promise<Map<string, Map<string, Map<string, Float32Array>>>> {
  const byScenario = new Map<string, Map<string, Map<string, Float32Array>>>();
  const models = [...new Set(entries.flatMap((e) => [...e.models]))].sort(byCodeUnit);
  for (const model of models) {
    if (embed === undefined) throw new Error(`trials rank by the embedding model ${model}, but the run was given no way to embed`);
    const users = entries.filter((e) => e.models.has(model));
    const texts = [...new Set(users.flatMap((e) => embeddedTexts(e.spec, e.writeBack)))];
    const vectors = await embed(model, texts);
    const all = new Map(texts.map((text, i) => [text, vectors[i]!]));
    for (const entry of users) {
      const tables = byScenario.get(entry.spec.name) ?? new Map<string, Map<string, Float32Array>>();
      tables.set(model, new Map(embeddedTexts(entry.spec, entry.writeBack).map((text) => [text, all.get(text)!])));
      byScenario.set(entry.spec.name, tables);
    }
  }
  return byScenario;
}

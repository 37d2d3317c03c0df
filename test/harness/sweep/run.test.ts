import { beforeAll, describe, expect, it } from "vitest";
import { type Experiment, loadExperiment } from "../../../src/harness/experiment/load.js";
import { metricValue } from "../../../src/harness/metrics.js";
import { runTrials, trialInputs } from "../../../src/harness/runner/run.js";
import { runTrial, runTrialUnder } from "../../../src/harness/runner/trial.js";
import { runSweep } from "../../../src/harness/sweep/run.js";
import { loadGemmaTokenizer, type RetrievalPolicy } from "../../../src/memory/index.js";
import { SystemHost } from "../../../src/harness/systems/index.js";
import { withoutLatency } from "../runner/trials.js";
import { memoisedCounter } from "../../../src/harness/runner/token-counts.js";
import { useTempDir } from "../temp-files.js";
import { TINY_SCENARIOS } from "../tiny-experiment.js";
import { repoPath } from "../temp-files.js";

const temp = useTempDir();

/** The tiny runner grid with a sweep of weights × episodic decay × decay unit × relevance backend. */
function sweepExperiment(touch: "off" | "on"): string {
  return temp.write(
    `sweep-${touch}.yaml`,
    [
      `name: sweep-${touch}`,
      "description: a small sweep for runner tests",
      "allowOutside: true",
      "scenarios:",
      ...TINY_SCENARIOS.map((s) => `  - ${JSON.stringify(repoPath(s))}`),
      "ablations: [full, relevance-only]",
      "seeds: [1, 2]",
      "variation: { jitter: 0.1, distractors: 2, shuffle: true, importanceNoise: 1 }",
      "detail: false",
      "k: [1, 3]",
      "sweep:",
      "  grid:",
      "    score.weights: [[1, 1, 1], [1, 0, 0], [0, 1, 0], [1, 2, 0.5]]",
      "    score.kindDecay.episodic: [0.9, 1]",
      "    score.unitMs: [1h, 1w]",
      "    score.relevance: [words, bm25]",
      "  objective: { metric: recall_any@1, tokenPenalty: 0.001 }",
      ...(touch === "off" ? ["  touch: off"] : []),
    ].join("\n"),
  );
}

let experiment: Experiment;
beforeAll(async () => {
  experiment = await loadExperiment(sweepExperiment("off"));
});

/** The experiment with the sweep's points as its ablations, for the ordinary runner. */
function pointsAsAblations(e: Experiment): Experiment {
  return {
    ...e,
    ablations: e.sweep!.points.map((p) => ({
      name: p.id,
      description: p.label,
      policy: p.policy,
      system: { type: "recollect" as const, policy: p.policy },
      writeBack: p.policy.writeBack,
      budget: null,
    })),
  };
}

describe("the one-pass evaluation of a sweep", () => {
  it("gives every point exactly the ask results of running it alone through the ordinary trial", async () => {
    const tokenizer = memoisedCounter(await loadGemmaTokenizer());
    const points = experiment.sweep!.points.map((p) => ({ name: p.id, policy: p.policy }));
    for (const input of trialInputs(pointsAsAblations(experiment)).filter((i) => i.ablation === points[0].name)) {
      const base = experiment.sweep!.base;
      const shared = await runTrialUnder({ ...input, system: { type: "recollect", policy: base }, writeBack: base.writeBack }, points, { tokens: tokenizer, host: new SystemHost() });
      for (const [i, point] of points.entries()) {
        const alone = await runTrial({ ...input, ablation: point.name, system: { type: "recollect", policy: point.policy } }, { tokens: tokenizer, host: new SystemHost() });
        expect(shared[i], `${input.scenario.name} seed ${input.seed} ${point.name}`).toEqual(withoutLatency(alone));
      }
    }
  });

  it("records, for every point, the per-ask objective of running it as an ordinary ablation with touch off", async () => {
    const sweep = await runSweep(experiment, { workers: 1 });
    const ordinary = pointsAsAblations(experiment);
    const trials = await runTrials(ordinary, { workers: 1 });
    const scenarios = [...experiment.scenarios].map((s) => s.spec).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const point of experiment.sweep!.points) {
      const expected = scenarios.flatMap((scenario) =>
        scenario.steps.flatMap((step) => {
          if (!step.ask) return [];
          const perSeed = experiment.spec.seeds.map((seed) => {
            const result = trials.find((t) => t.scenario === scenario.name && t.ablation === point.id && t.seed === seed)!.asks.find((a) => a.ask === step.ask!.id)!;
            return metricValue(result, "recall_any@1")! - 0.001 * result.tokens;
          });
          return [perSeed.reduce((a, b) => a + b, 0) / perSeed.length];
        }),
      );
      sweep.values[point.id].forEach((v, i) => expect(v, `${point.id} ask ${i}`).toBeCloseTo(expected[i], 6));
    }
    expect(sweep.evaluation).toBe("one-pass");
    expect(sweep.touchOff).toBe(true);
  });

  it("is the same with two workers as with one", async () => {
    expect(await runSweep(experiment, { workers: 2 })).toEqual(await runSweep(experiment, { workers: 1 }));
  });

  it("runs each point's own trials when the base policy touches and the sweep does not turn touch off", async () => {
    const touching = await loadExperiment(sweepExperiment("on"));
    expect(touching.sweep!.sharedTimeline).toBe(false);
    const sweep = await runSweep(touching, { workers: 1 });
    expect(sweep.evaluation).toBe("full-trials");
    expect(sweep.touchOff).toBe(false);
    const trials = await runTrials(pointsAsAblations(touching), { workers: 1 });
    const point = touching.sweep!.points[0];
    const first = trials.find((t) => t.ablation === point.id && t.scenario === "per-kind-demo")!;
    const seeds = touching.spec.seeds.length;
    const fromTrials = trials.filter((t) => t.ablation === point.id && t.scenario === "per-kind-demo");
    const ask0 = fromTrials.reduce((sum, t) => sum + metricValue(t.asks[0], "recall_any@1")! - 0.001 * t.asks[0].tokens, 0) / seeds;
    expect(first.asks.length).toBeGreaterThan(0);
    expect(sweep.values[point.id][0]).toBeCloseTo(ask0, 6);
  });

  it("refuses to share a timeline between policies that touch", async () => {
    const tokenizer = memoisedCounter(await loadGemmaTokenizer());
    const input = trialInputs(experiment)[0];
    const touching = { ...(input.system as { policy: RetrievalPolicy }).policy, touch: true };
    const context = { tokens: tokenizer, host: new SystemHost() };
    await expect(runTrialUnder(input, [{ name: "a", policy: touching }, { name: "b", policy: touching }], context)).rejects.toThrow(/cannot be shared/);
  });
});

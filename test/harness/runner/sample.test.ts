import { beforeAll, describe, expect, it } from "vitest";
import { datasetResolver } from "../../../src/cli/commands/datasets.js";
import { type Experiment, loadExperiment } from "../../../src/harness/experiment/load.js";
import { buildResults } from "../../../src/harness/results/build.js";
import { buildManifest } from "../../../src/harness/results/manifest.js";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { trialKey } from "../../../src/harness/results/trial-key.js";
import { runTrials } from "../../../src/harness/runner/run.js";
import { datasetSample, recordedOutsideSample, type RunSample, spreadSample } from "../../../src/harness/runner/sample.js";
import { runSweep } from "../../../src/harness/sweep/run.js";
import { repoPath, useTempDir } from "../temp-files.js";
import { TINY_SCENARIOS } from "../tiny-experiment.js";

const temp = useTempDir();
/** Imports the conversation file as the command line does. */
const importer = datasetResolver({ locomo: "", acceptLocomoHash: false });
/** Counts characters: the sample decides which trials run, not what a line costs. */
const tokenizer = { count: (text: string) => text.length };

/** The example benchmark (ten conversations, one question each) with a small sweep beside its ablations. */
function benchmark(name: string, lines: string[] = []): string {
  return temp.write(
    `${name}.yaml`,
    [
      `name: ${name}`,
      "description: the example benchmark, for sampled runs",
      "allowOutside: true",
      `dataset: { format: conversations, path: ${JSON.stringify(repoPath("examples/your-own-benchmark/conversations.jsonl"))} }`,
      "ablations: [full, relevance-only]",
      "seeds: [1, 2]",
      "variation: { shuffle: true }",
      "k: [1, 3]",
      ...lines,
    ].join("\n"),
  );
}

const SWEEP = ["sweep:", "  grid:", "    score.weights: [[1, 1, 1], [1, 0, 0]]", "    score.relevance: [words, bm25]", "  objective: { metric: recall_any@1 }", "  folds: 2", "  touch: off"];

/** What a full run records: results of this very experiment (its hash), with the sweep when it has one. */
async function record(experiment: Experiment): Promise<ExperimentResults> {
  const trials = await runTrials(experiment, { workers: 1, tokenizer });
  const manifest = buildManifest({ tokenizerSha256: "test", datasets: experiment.datasets, experimentHash: experiment.hash, wallTimeMs: 0 });
  const results = buildResults(experiment, trials, manifest);
  return experiment.sweep === undefined ? results : { ...results, sweep: await runSweep(experiment, { workers: 1, tokenizer }) };
}

const latencyFree = (results: ExperimentResults["trials"]) => results.map(({ latency: _, ...t }) => t);

let experiment: Experiment;
let recorded: ExperimentResults;
beforeAll(async () => {
  experiment = await loadExperiment(benchmark("sampled", SWEEP), importer);
  recorded = await record(experiment);
});

describe("spreadSample: which conversations a quick check re-runs", () => {
  const names = Array.from({ length: 10 }, (_, i) => `conv-${i}`);

  it("takes the middle of each of `count` equal stretches of the names in code-unit order", () => {
    expect(spreadSample(names, 3)).toEqual(["conv-1", "conv-5", "conv-8"]);
    expect(spreadSample(names, 2)).toEqual(["conv-2", "conv-7"]);
    expect(spreadSample(names, 1)).toEqual(["conv-5"]);
  });

  it("does not depend on the order it is given the names in", () => {
    expect(spreadSample([...names].reverse(), 3)).toEqual(spreadSample(names, 3));
  });

  it("takes every name, each once, when `count` is at least their number", () => {
    expect(spreadSample(names, 10)).toEqual(names);
    expect(spreadSample(names, 50)).toEqual(names);
  });
});

describe("datasetSample: when a quick check samples an experiment", () => {
  it("samples the conversations of a dataset experiment whose recording is of the same experiment", () => {
    const sample = datasetSample(experiment, recorded, 3) as RunSample;
    const sampled = spreadSample(experiment.scenarios.map((s) => s.spec.name), 3);
    expect(sample).toEqual({ scenarios: new Set(sampled), conversations: { sampled, of: 10 }, recorded });
    expect(sample.recorded).toBe(recorded);
  });

  it("runs every hand-made scenario beside the sampled conversations of an experiment that has both", async () => {
    const mixed = await loadExperiment(
      benchmark("mixed", ["scenarios:", ...TINY_SCENARIOS.map((s) => `  - ${JSON.stringify(repoPath(s))}`)]),
      importer,
    );
    const handMade = mixed.scenarios.filter((s) => !s.imported).map((s) => s.spec.name);
    expect(handMade).toHaveLength(TINY_SCENARIOS.length);
    const sample = datasetSample(mixed, { ...recorded, manifest: { ...recorded.manifest, experimentHash: mixed.hash } }, 3) as RunSample;
    expect(sample.conversations).toEqual({ sampled: spreadSample(experiment.scenarios.map((s) => s.spec.name), 3), of: 10 });
    expect([...sample.scenarios].sort()).toEqual([...sample.conversations.sampled, ...handMade].sort());
  });

  it("samples nothing of hand-made scenarios, each of which tests a behaviour of its own", async () => {
    const handMade = await loadExperiment(
      temp.write("hand-made.yaml", ["name: hand-made", "description: scenario files", "allowOutside: true", "scenarios:", ...TINY_SCENARIOS.map((s) => `  - ${JSON.stringify(repoPath(s))}`), "ablations: [full]", "seeds: [1]"].join("\n")),
    );
    const results = { ...recorded, manifest: { ...recorded.manifest, experimentHash: handMade.hash } };
    expect(datasetSample(handMade, results, 1)).toBeUndefined();
  });

  it("samples nothing, saying why, without a recording, or with a recording of another version of the experiment", () => {
    expect(datasetSample(experiment, undefined, 3)).toEqual({ whyNot: "there is no recording to take the others from" });
    expect(datasetSample(experiment, { ...recorded, manifest: { ...recorded.manifest, experimentHash: "another" } }, 3)).toEqual({
      whyNot: "the recording is of another version of the experiment (its file, scenarios or data)",
    });
  });

  it("samples nothing when the experiment has no more conversations than the sample would take", () => {
    expect(datasetSample(experiment, recorded, 10)).toBeUndefined();
  });
});

describe("a run on a sample", () => {
  let sample: RunSample;
  beforeAll(() => {
    sample = datasetSample(experiment, recorded, 3) as RunSample;
  });

  it("runs the sampled conversations' trials only, and counts only them in its progress", async () => {
    const totals = new Set<number>();
    const ran = new Set<string>();
    await runTrials(experiment, { workers: 1, tokenizer, sample, onProgress: (_, total, trial) => (totals.add(total), trial && ran.add(trial.scenario)) });
    expect([...ran].sort()).toEqual([...sample.scenarios].sort());
    // 3 conversations × 2 ablations × 2 seeds.
    expect([...totals]).toEqual([12]);
  });

  it("gives the full run's trials, in its order: the sampled ones run again, the others the recorded ones", async () => {
    const trials = await runTrials(experiment, { workers: 1, tokenizer, sample });
    expect(latencyFree(trials)).toEqual(recorded.trials);
    const outside = recordedOutsideSample(sample);
    expect(outside.size).toBe(recorded.trials.length - 12);
    for (const trial of trials.filter((t) => !sample.scenarios.has(t.scenario))) expect(trial).toBe(outside.get(trialKey(trial)));
  });

  it("so a recorded trial outside the sample is taken as it is recorded, and one inside it is run again", async () => {
    const [inside, outside] = [[...sample.scenarios][0], recorded.trials.find((t) => !sample.scenarios.has(t.scenario))!.scenario];
    const tampered = recorded.trials.map((t) => (t.scenario === inside || t.scenario === outside ? { ...t, asks: t.asks.map((a) => ({ ...a, tokens: -1 })) } : t));
    const trials = await runTrials(experiment, { workers: 1, tokenizer, sample: { ...sample, recorded: { ...recorded, trials: tampered } } });
    const tokens = (scenario: string) => [...new Set(trials.filter((t) => t.scenario === scenario).flatMap((t) => t.asks.map((a) => a.tokens)))];
    expect(tokens(outside)).toEqual([-1]);
    expect(tokens(inside)).not.toContain(-1);
  });

  it("runs again a recorded trial whose asks are not its scenario's (the import changed since)", async () => {
    const outside = recorded.trials.findIndex((t) => !sample.scenarios.has(t.scenario));
    const renamed = recorded.trials.map((t, i) => (i === outside ? { ...t, asks: t.asks.map((a) => ({ ...a, ask: `${a.ask}-renamed` })) } : t));
    const trials = await runTrials(experiment, { workers: 1, tokenizer, sample: { ...sample, recorded: { ...recorded, trials: renamed } } });
    expect(latencyFree(trials)).toEqual(recorded.trials);
  });

  it("runs a trial the recording lacks, whatever its conversation", async () => {
    const lacking = recorded.trials.filter((t) => !(t.ablation === "relevance-only" && t.seed === 2));
    const trials = await runTrials(experiment, { workers: 1, tokenizer, sample: { ...sample, recorded: { ...recorded, trials: lacking } } });
    expect(latencyFree(trials)).toEqual(recorded.trials);
  });

  it("evaluates the sweep's points on the sampled conversations, takes the others' values from the recording, and selects over all of them", async () => {
    expect(await runSweep(experiment, { workers: 1, tokenizer, sample })).toEqual(recorded.sweep);
    // A recorded value outside the sample is taken as it is; one inside it is evaluated again.
    const sweep = recorded.sweep!;
    const asks = recorded.experiment.scenarios.flatMap((s) => s.asks.map(() => s.name));
    const inside = asks.indexOf([...sample.scenarios][0]!);
    const outside = asks.findIndex((name) => !sample.scenarios.has(name));
    const point = sweep.points[0]!.id;
    const values = { ...sweep.values, [point]: sweep.values[point]!.map((v, i) => (i === inside || i === outside ? v + 5 : v)) };
    const fresh = await runSweep(experiment, { workers: 1, tokenizer, sample: { ...sample, recorded: { ...recorded, sweep: { ...sweep, values } } } });
    expect(fresh.values[point]![outside]).toBe(sweep.values[point]![outside]! + 5);
    expect(fresh.values[point]![inside]).toBe(sweep.values[point]![inside]);
  });

  it("evaluates every conversation when the recording has no sweep, or lacks an ask of a conversation left out", async () => {
    const { sweep: _, ...withoutSweep } = recorded;
    expect(await runSweep(experiment, { workers: 1, tokenizer, sample: { ...sample, recorded: withoutSweep } })).toEqual(recorded.sweep);
    // The recording's asks of a conversation outside the sample renamed, and every value changed: none of them is used.
    const outside = recorded.experiment.scenarios.find((s) => !sample.scenarios.has(s.name))!.name;
    const experimentInfo = { ...recorded.experiment, scenarios: recorded.experiment.scenarios.map((s) => (s.name === outside ? { ...s, asks: s.asks.map((a) => ({ ...a, id: `${a.id}-renamed` })) } : s)) };
    const values = Object.fromEntries(Object.entries(recorded.sweep!.values).map(([id, v]) => [id, v.map((x) => x + 5)]));
    const stale = { ...recorded, experiment: experimentInfo, sweep: { ...recorded.sweep!, values } };
    expect(await runSweep(experiment, { workers: 1, tokenizer, sample: { ...sample, recorded: stale } })).toEqual(recorded.sweep);
  });

  it("evaluates a sweep whose points run trials of their own (touch on) on the sample as it does in full", async () => {
    const touching = await loadExperiment(benchmark("sampled-touch", SWEEP.filter((line) => !line.includes("touch: off"))), importer);
    const full = await record(touching);
    expect(full.sweep!.evaluation).toBe("full-trials");
    const sampled = datasetSample(touching, full, 3) as RunSample;
    expect(await runSweep(touching, { workers: 1, tokenizer, sample: sampled })).toEqual(full.sweep);
  });
});

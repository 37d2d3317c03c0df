import { existsSync, readFileSync } from "node:fs";
import { fileError } from "../../shared/errors.js";
import { trialKey } from "../../harness/runner/journal.js";
import { parseResults, writeResults } from "../../harness/results/io.js";
import type { ExperimentResults, Trial } from "../../harness/results/types.js";
import type { MergeArgs } from "../app.js";
import type { Log } from "./experiment.js";
import { resultsFile } from "./pipeline.js";

/**
 * Joins shard results of one experiment into the results an unsharded run gives: the same trials
 * in the same canonical order. Shards of different experiment versions are refused.
 */
export function mergeResults(shards: { file: string; results: ExperimentResults }[]): ExperimentResults {
  const [first] = shards;
  const experiment = JSON.stringify(first.results.experiment);
  const trials = new Map<string, Trial>();
  let wallTimeMs = 0;
  for (const { file, results } of shards) {
    if (JSON.stringify(results.experiment) !== experiment || results.manifest.experimentHash !== first.results.manifest.experimentHash) {
      throw fileError(file, `is a shard of a different experiment or version than ${first.file}`);
    }
    for (const trial of results.trials) trials.set(trialKey(trial), trial);
    wallTimeMs += results.manifest.wallTimeMs;
  }
  const { experiment: info } = first.results;
  const order = new Map(info.ablations.map((a, i) => [a.name, i]));
  const seedOrder = new Map(info.seeds.map((s, i) => [s, i]));
  const scenarioOrder = new Map(info.scenarios.map((s, i) => [s.name, i]));
  const expected = info.scenarios.length * info.ablations.length * info.seeds.length;
  if (trials.size !== expected) {
    throw fileError(first.file, `the shards hold ${trials.size} of the experiment's ${expected} trials; is a shard missing?`);
  }
  const sorted = [...trials.values()].sort(
    (a, b) =>
      scenarioOrder.get(a.scenario)! - scenarioOrder.get(b.scenario)! ||
      order.get(a.ablation)! - order.get(b.ablation)! ||
      seedOrder.get(a.seed)! - seedOrder.get(b.seed)!,
  );
  return { ...first.results, manifest: { ...first.results.manifest, wallTimeMs }, trials: sorted };
}

export async function mergeCommand(args: MergeArgs, log: Log): Promise<void> {
  const shards = args.shards.map((file) => {
    if (!existsSync(file)) throw fileError(file, "shard results file not found");
    return { file, results: parseResults(file, readFileSync(file, "utf8")) };
  });
  const merged = mergeResults(shards);
  const out = args.out ?? resultsFile(merged.experiment.name);
  log(`${merged.experiment.name}: merged ${shards.length} shards (${merged.trials.length} trials) into ${out}: ${writeResults(out, merged)}`);
}

import { fileError, plural } from "../../shared/errors.js";
import { parseResults, readResultsText, writeResults } from "../../harness/results/io.js";
import { trialKey } from "../../harness/results/trial-key.js";
import type { ExperimentResults, Trial } from "../../harness/results/types.js";
import type { Log, MergeArgs } from "../app.js";
import { resultsFile } from "./pipeline.js";

type Shard = NonNullable<ExperimentResults["manifest"]["shard"]>;

/** The results of shard `shard` of a grid, marked as such so that `merge` can tell them from complete results. */
export function markShard(results: ExperimentResults, shard: Shard): ExperimentResults {
  return { ...results, manifest: { ...results.manifest, shard: { index: shard.index, count: shard.count } } };
}

/**
 * Joins shard results of one experiment into the results an unsharded run gives: the same trials
 * in the same canonical order. Only files written by `--shard i/n` are shards; every shard 1..n
 * must be given once, and shards of different experiment versions are refused.
 */
export function mergeResults(shards: { file: string; results: ExperimentResults }[]): ExperimentResults {
  const [first] = shards;
  const experiment = JSON.stringify(first.results.experiment);
  const seen = new Map<number, string>();
  let count: number | undefined;
  const trials = new Map<string, Trial>();
  let wallTimeMs = 0;
  for (const { file, results } of shards) {
    const shard = results.manifest.shard;
    if (shard === undefined) {
      throw fileError(file, "is not a shard: complete results need no merging (shards are written by `npm run experiment -- --shard i/n`)");
    }
    count ??= shard.count;
    if (shard.count !== count || shard.index > shard.count) {
      throw fileError(file, `is shard ${shard.index}/${shard.count}, but ${first.file} is shard ${first.results.manifest.shard!.index}/${count}`);
    }
    const again = seen.get(shard.index);
    if (again !== undefined) throw fileError(file, `is shard ${shard.index}/${count}, and so is ${again}; give each shard once`);
    seen.set(shard.index, file);
    if (JSON.stringify(results.experiment) !== experiment || results.manifest.experimentHash !== first.results.manifest.experimentHash) {
      throw fileError(file, `is a shard of a different experiment or version than ${first.file}`);
    }
    for (const trial of results.trials) trials.set(trialKey(trial), trial);
    wallTimeMs += results.manifest.wallTimeMs;
  }
  const missing = Array.from({ length: count! }, (_, i) => i + 1).filter((index) => !seen.has(index));
  if (missing.length > 0) {
    const which = missing.map((index) => `${index}/${count}`).join(", ");
    throw fileError(first.file, `${missing.length === 1 ? "shard" : "shards"} ${which} of the grid ${missing.length === 1 ? "is" : "are"} missing`);
  }
  const { experiment: info } = first.results;
  const order = new Map(info.ablations.map((a, i) => [a.name, i]));
  const seedOrder = new Map(info.seeds.map((s, i) => [s, i]));
  const scenarioOrder = new Map(info.scenarios.map((s, i) => [s.name, i]));
  const expected = info.scenarios.length * info.ablations.length * info.seeds.length;
  if (trials.size !== expected) {
    throw fileError(first.file, `the shards hold ${trials.size} of the experiment's ${expected} trials; re-run the shards`);
  }
  const sorted = [...trials.values()].sort(
    (a, b) =>
      scenarioOrder.get(a.scenario)! - scenarioOrder.get(b.scenario)! ||
      order.get(a.ablation)! - order.get(b.ablation)! ||
      seedOrder.get(a.seed)! - seedOrder.get(b.seed)!,
  );
  const { shard: _shard, ...manifest } = first.results.manifest;
  return { ...first.results, manifest: { ...manifest, wallTimeMs }, trials: sorted };
}

export async function mergeCommand(args: MergeArgs, log: Log): Promise<void> {
  const shards = args.shards.map((file) => ({ file, results: parseResults(file, readResultsText(file)) }));
  const merged = mergeResults(shards);
  const out = args.out ?? resultsFile(merged.experiment.name);
  const trials = plural(merged.trials.length, "trial");
  log(`${merged.experiment.name}: merged ${plural(shards.length, "shard")} (${trials}) into ${out}: ${writeResults(out, merged)}`);
}

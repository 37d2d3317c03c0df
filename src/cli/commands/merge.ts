import { fileError, plural, userError } from "../../shared/errors.js";
import { codeVersion } from "../../harness/runner/code-version.js";
import { parseResults, readResultsText, writeResults } from "../../harness/results/io.js";
import { trialKey } from "../../harness/results/trial-key.js";
import type { ExperimentResults, Trial } from "../../harness/results/types.js";
import type { Log, MergeArgs } from "../app.js";
import { resultsFile } from "./pipeline.js";

type Shard = NonNullable<ExperimentResults["manifest"]["shard"]>;
type ShardFile = { file: string; results: ExperimentResults };

/**
 * The results of shard `shard` of a grid, marked as such so that `merge` can tell them from
 * complete results, with the version of the code that ran it, so that `merge` can refuse shards
 * of two versions.
 */
export function markShard(results: ExperimentResults, shard: Pick<Shard, "index" | "count">): ExperimentResults {
  return { ...results, manifest: { ...results.manifest, shard: { index: shard.index, count: shard.count, codeVersion: codeVersion() } } };
}

/** "2, 5" or "2–4, 7": shard numbers, runs of three or more as ranges. */
function numbers(values: number[]): string {
  const runs: [number, number][] = [];
  for (const v of values) {
    const last = runs.at(-1);
    if (last && last[1] === v - 1) last[1] = v;
    else runs.push([v, v]);
  }
  return runs.map(([a, b]) => (a === b ? `${a}` : b === a + 1 ? `${a}, ${b}` : `${a}–${b}`)).join(", ");
}

/**
 * What every shard of one grid must share, by what a reader would call it: the shards of a grid are
 * only one run when they ran the same experiment definition, files and code.
 */
const SAME: { what: string; of: (r: ExperimentResults) => string; fix: string }[] = [
  { what: "experiment hash", of: (r) => r.manifest.experimentHash, fix: "re-run it from the same experiment and scenario files" },
  { what: "experiment definition", of: (r) => JSON.stringify(r.experiment), fix: "re-run it from the same experiment and scenario files" },
  { what: "code version", of: (r) => r.manifest.shard?.codeVersion ?? "unrecorded", fix: "re-run it with the same code and lockfile" },
];

/** Refuses shards that differ in what they must share, naming the odd one out (or, with no majority, each group). */
function checkSameRun(shards: ShardFile[]): void {
  for (const { what, of, fix } of SAME) {
    const groups = new Map<string, string[]>();
    for (const { file, results } of shards) groups.set(of(results), [...(groups.get(of(results)) ?? []), file]);
    if (groups.size === 1) continue;
    const sorted = [...groups.entries()].sort((a, b) => b[1].length - a[1].length);
    const short = (value: string) => (value.length > 16 ? `${value.slice(0, 12)}…` : value);
    const [[usual, most], ...odd] = sorted;
    if (most.length > shards.length / 2 && odd.length === 1 && odd[0]![1].length === 1) {
      const [value, [file]] = odd[0]!;
      throw fileError(file!, `has another ${what} (${short(value)}) than the other ${plural(most.length, "shard")} (${short(usual)}); ${fix}`);
    }
    const listed = sorted.map(([value, files]) => `${files.join(", ")} (${short(value)})`).join("; ");
    throw userError(`merge: the shards differ in their ${what}: ${listed}; re-run them from the same files and code`);
  }
}

/**
 * Joins shard results of one experiment into the results an unsharded run gives: the same trials
 * in the same canonical order, and the same bytes however often and in whatever order the same
 * shards are merged. Only files written by `--shard i/n` are shards; every shard 1..n must be
 * given exactly once, and all from one experiment and one version of the code.
 */
export function mergeResults(shards: ShardFile[]): ExperimentResults {
  const [first] = shards;
  const byIndex = new Map<number, string[]>();
  let count: number | undefined;
  for (const { file, results } of shards) {
    const shard = results.manifest.shard;
    if (shard === undefined) {
      throw fileError(file, "is not a shard: complete results need no merging (shards are written by `npm run experiment -- --shard i/n`)");
    }
    count ??= shard.count;
    if (shard.count !== count || shard.index > shard.count) {
      throw fileError(file, `is shard ${shard.index}/${shard.count}, but ${first.file} is shard ${first.results.manifest.shard!.index}/${count}`);
    }
    byIndex.set(shard.index, [...(byIndex.get(shard.index) ?? []), file]);
  }
  // Shards of another run first: they are not the missing or repeated shards of this one.
  checkSameRun(shards);
  const name = first.results.experiment.name;
  const missing = Array.from({ length: count! }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  const twice = [...byIndex.entries()].filter(([, files]) => files.length > 1).sort((a, b) => a[0] - b[0]);
  if (missing.length > 0 || twice.length > 0) {
    const parts = [
      ...(missing.length === 0 ? [] : [`missing ${missing.length === 1 ? "shard" : "shards"} ${numbers(missing)} of ${count}`]),
      ...twice.map(([index, files]) => `shard ${index} of ${count} given ${files.length} times (${files.join(", ")})`),
    ];
    throw userError(`merge of ${name}: ${parts.join("; ")}; give each shard of the grid once`);
  }
  // Shard 1's manifest stands for the run, whatever order the shards were given in.
  const ordered = [...shards].sort((a, b) => a.results.manifest.shard!.index - b.results.manifest.shard!.index);
  const trials = new Map<string, Trial>();
  for (const { results } of ordered) for (const trial of results.trials) trials.set(trialKey(trial), trial);
  const { experiment: info, manifest: head } = ordered[0]!.results;
  const order = new Map(info.ablations.map((a, i) => [a.name, i]));
  const seedOrder = new Map(info.seeds.map((s, i) => [s, i]));
  const scenarioOrder = new Map(info.scenarios.map((s, i) => [s.name, i]));
  const expected = info.scenarios.length * info.ablations.length * info.seeds.length;
  if (trials.size !== expected) {
    throw userError(`merge of ${name}: the shards hold ${trials.size} of the experiment's ${expected} trials; re-run the shards`);
  }
  const sorted = [...trials.values()].sort(
    (a, b) =>
      scenarioOrder.get(a.scenario)! - scenarioOrder.get(b.scenario)! ||
      order.get(a.ablation)! - order.get(b.ablation)! ||
      seedOrder.get(a.seed)! - seedOrder.get(b.seed)!,
  );
  const { shard: _shard, ...manifest } = head;
  const wallTimeMs = ordered.reduce((sum, { results }) => sum + results.manifest.wallTimeMs, 0);
  return { ...ordered[0]!.results, manifest: { ...manifest, wallTimeMs }, trials: sorted };
}

export async function mergeCommand(args: MergeArgs, log: Log): Promise<void> {
  const shards = args.shards.map((file) => ({ file, results: parseResults(file, readResultsText(file)) }));
  const merged = mergeResults(shards);
  const out = args.out ?? resultsFile(merged.experiment.name);
  const trials = plural(merged.trials.length, "trial");
  log(`${merged.experiment.name}: merged ${plural(shards.length, "shard")} (${trials}) into ${out}: ${writeResults(out, merged)}`);
}

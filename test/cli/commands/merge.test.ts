import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { markShard, mergeCommand, mergeResults } from "../../../src/cli/commands/merge.js";
import { type Experiment, loadExperiment } from "../../../src/harness/experiment/load.js";
import { parseResults, serialiseResults, stableContent } from "../../../src/harness/results/io.js";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { runTrials } from "../../../src/harness/runner/run.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { useTempDir } from "../../harness/temp-files.js";
import { resultsOf, writeTinyExperiment } from "../../harness/tiny-experiment.js";
import { userError } from "../../helpers/user-error.js";

const temp = useTempDir();
let experiment: Experiment;
let unsharded: ExperimentResults;

/** Shard `index` of `count`, as `recollect experiment --shard index/count` records it. */
async function shard(index: number, count: number): Promise<{ file: string; results: ExperimentResults }> {
  const trials = await runTrials(experiment, { workers: 1, shard: { index, count } });
  const results = markShard(resultsOf(experiment, trials), { index, count });
  results.manifest.wallTimeMs = 100 * index;
  const file = temp.write(`shards/tiny.${index}-of-${count}.json`, serialiseResults(results));
  return { file, results: parseResults(file, readFileSync(file, "utf8")) };
}


beforeAll(async () => {
  experiment = await loadExperiment(writeTinyExperiment(temp));
  unsharded = resultsOf(experiment, await runTrials(experiment, { workers: 1 }));
});

describe("mergeResults", () => {
  it("joins shards 1/2 and 2/2 into the results of an unsharded run", async () => {
    const shards = [await shard(1, 2), await shard(2, 2)];
    expect(shards[0].results.trials.length + shards[1].results.trials.length).toBe(unsharded.trials.length);
    const merged = mergeResults(shards);
    expect(stableContent(merged)).toBe(stableContent(unsharded));
    // The run's wall time is the shards' total.
    expect(merged.manifest.wallTimeMs).toBe(300);
  });

  it("gives the same bytes however often, and in whatever order, the same shards are merged", async () => {
    const shards = [await shard(1, 3), await shard(2, 3), await shard(3, 3)];
    const merged = serialiseResults(mergeResults(shards));
    expect(stableContent(mergeResults(shards))).toBe(stableContent(unsharded));
    expect(serialiseResults(mergeResults([shards[2]!, shards[0]!, shards[1]!]))).toBe(merged);
    expect(serialiseResults(mergeResults(shards))).toBe(merged);
  });

  it("refuses shards that do not cover the grid, listing the missing ones", async () => {
    const first = await shard(1, 3);
    expect(userError(() => mergeResults([first])).message).toBe("merge of tiny: missing shards 2, 3 of 3; give each shard of the grid once");
    const third = await shard(3, 3);
    expect(userError(() => mergeResults([third, first])).message).toBe("merge of tiny: missing shard 2 of 3; give each shard of the grid once");
    const fifth = await shard(5, 5);
    expect(userError(() => mergeResults([fifth])).message).toBe("merge of tiny: missing shards 1–4 of 5; give each shard of the grid once");
  });

  it("refuses a shard given twice, naming its files, with the missing ones in the same line", async () => {
    const first = await shard(1, 2);
    expect(userError(() => mergeResults([first, first])).message).toBe(
      `merge of tiny: missing shard 2 of 2; shard 1 of 2 given 2 times (${first.file}, ${first.file}); give each shard of the grid once`,
    );
    const second = await shard(2, 2);
    expect(userError(() => mergeResults([second, first, second])).message).toBe(
      `merge of tiny: shard 2 of 2 given 2 times (${second.file}, ${second.file}); give each shard of the grid once`,
    );
  });

  it("refuses shards of different splits", async () => {
    const [half, third] = [await shard(1, 2), await shard(2, 3)];
    expect(userError(() => mergeResults([half, third])).message).toBe(`${third.file}: is shard 2/3, but ${half.file} is shard 1/2`);
  });

  it("refuses complete results, which are not a shard (not \"merged 1 shards\")", () => {
    const file = temp.write("results/tiny.json", serialiseResults(unsharded));
    const complete = { file, results: parseResults(file, readFileSync(file, "utf8")) };
    expect(userError(() => mergeResults([complete])).message).toBe(
      `${file}: is not a shard: complete results need no merging (shards are written by \`npm run experiment -- --shard i/n\`)`,
    );
  });

  it("names the one shard of another experiment version, or code version, than the rest", async () => {
    const shards = [await shard(1, 3), await shard(2, 3), await shard(3, 3)];
    const hash = shards[0]!.results.manifest.experimentHash;
    const edited = { ...shards[1]!, results: { ...shards[1]!.results, manifest: { ...shards[1]!.results.manifest, experimentHash: "edited" } } };
    expect(userError(() => mergeResults([shards[0]!, edited, shards[2]!])).message).toBe(
      `${edited.file}: has another experiment hash (edited) than the other 2 shards (${hash.slice(0, 12)}…); re-run it from the same experiment and scenario files`,
    );
    const manifest = shards[2]!.results.manifest;
    const otherCode = { ...shards[2]!, results: { ...shards[2]!.results, manifest: { ...manifest, shard: { ...manifest.shard!, codeVersion: "0123456789abcdef0123" } } } };
    expect(userError(() => mergeResults([otherCode, shards[0]!, shards[1]!])).message).toBe(
      `${otherCode.file}: has another code version (0123456789ab…) than the other 2 shards (${manifest.shard!.codeVersion!.slice(0, 12)}…); re-run it with the same code and lockfile`,
    );
    const otherSeeds = { ...shards[1]!, results: { ...shards[1]!.results, experiment: { ...shards[1]!.results.experiment, seeds: [1, 2] } } };
    expect(userError(() => mergeResults([shards[0]!, otherSeeds, shards[2]!])).message).toMatch(new RegExp(`^${otherSeeds.file}: has another experiment definition `));
  });

  it("records the code version in each shard, and with two shards that differ names both", async () => {
    const [first, second] = [await shard(1, 2), await shard(2, 2)];
    expect(first.results.manifest.shard!.codeVersion).toMatch(/^[0-9a-f]{64}$/);
    const edited = { ...second, results: { ...second.results, manifest: { ...second.results.manifest, experimentHash: "edited" } } };
    const hash = first.results.manifest.experimentHash.slice(0, 12);
    expect(userError(() => mergeResults([first, edited])).message).toBe(
      `merge: the shards differ in their experiment hash: ${first.file} (${hash}…); ${second.file} (edited); re-run them from the same files and code`,
    );
  });
});

describe("mergeCommand", () => {
  it("writes the merged results to --out and says what it did", async () => {
    const [first, second] = [await shard(1, 2), await shard(2, 2)];
    const out = temp.path("merged/tiny.json");
    const log: string[] = [];
    await mergeCommand({ shards: [first.file, second.file], out }, (line) => log.push(line));
    expect(log).toEqual([`tiny: merged 2 shards (${unsharded.trials.length} trials) into ${out}: written`]);
    const merged = parseResults(out, readFileSync(out, "utf8"));
    expect(stableContent(merged)).toBe(stableContent(unsharded));
    expect(merged.manifest.shard).toBeUndefined();
  });

  it("leaves the merged file byte-identical when the same shards are merged again", async () => {
    const [first, second] = [await shard(1, 2), await shard(2, 2)];
    const out = temp.path("again/tiny.json");
    const log: string[] = [];
    await mergeCommand({ shards: [first.file, second.file], out }, (line) => log.push(line));
    const bytes = readFileSync(out);
    await mergeCommand({ shards: [second.file, first.file], out }, (line) => log.push(line));
    expect(readFileSync(out).equals(bytes)).toBe(true);
    expect(log[1]).toMatch(/: unchanged$/);
  });

  it("names a shard file that does not exist", async () => {
    const missing = temp.path("shards/absent.json");
    const error = await mergeCommand({ shards: [missing], out: temp.path("never.json") }, () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecollectError);
    expect((error as RecollectError).message).toBe(`${missing}: file not found`);
  });
});

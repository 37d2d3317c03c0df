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

  it("does not depend on the order the shards are given in", async () => {
    const shards = [await shard(3, 3), await shard(1, 3), await shard(2, 3)];
    expect(stableContent(mergeResults(shards))).toBe(stableContent(unsharded));
  });

  it("refuses shards that do not cover the grid, naming the missing ones", async () => {
    const first = await shard(1, 3);
    expect(userError(() => mergeResults([first])).message).toBe(`${first.file}: shards 2/3, 3/3 of the grid are missing`);
    const third = await shard(3, 3);
    expect(userError(() => mergeResults([third, first])).message).toBe(`${third.file}: shard 2/3 of the grid is missing`);
  });

  it("refuses a shard given twice", async () => {
    const first = await shard(1, 2);
    expect(userError(() => mergeResults([first, first])).message).toBe(`${first.file}: is shard 1/2, and so is ${first.file}; give each shard once`);
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

  it("refuses a shard of another version of the experiment", async () => {
    const [first, second] = [await shard(1, 2), await shard(2, 2)];
    const edited = { file: second.file, results: { ...second.results, manifest: { ...second.results.manifest, experimentHash: "edited" } } };
    expect(userError(() => mergeResults([first, edited])).message).toBe(`${second.file}: is a shard of a different experiment or version than ${first.file}`);
    const otherSeeds = { file: second.file, results: { ...second.results, experiment: { ...second.results.experiment, seeds: [1, 2] } } };
    expect(() => mergeResults([first, otherSeeds])).toThrow(RecollectError);
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

  it("names a shard file that does not exist", async () => {
    const missing = temp.path("shards/absent.json");
    const error = await mergeCommand({ shards: [missing], out: temp.path("never.json") }, () => {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecollectError);
    expect((error as RecollectError).message).toBe(`${missing}: file not found`);
  });
});

import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_SHARDS, parseShard, SHARD_SOURCES, shardFromEnvironment } from "../../src/cli/shard.js";
import { parseResults, stableContent } from "../../src/harness/results/io.js";
import { UsageError } from "../../src/shared/errors.js";
import { repoPath } from "../harness/temp-files.js";
import { type CliOutcome, runCli, useSandbox } from "./sandbox.js";

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).flag).toBe("--shard");
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
};

describe("parseShard", () => {
  it("takes i/n, 1-based, up to the shard limit", () => {
    expect(parseShard("2/3", {})).toEqual({ index: 2, count: 3 });
    expect(parseShard(`${MAX_SHARDS}/${MAX_SHARDS}`, {})).toEqual({ index: MAX_SHARDS, count: MAX_SHARDS });
    expect(parseShard(undefined, { JOB_COMPLETION_INDEX: "0", JOB_COMPLETIONS: "2" })).toBeUndefined();
  });

  it("reads auto from the environment", () => {
    expect(parseShard("auto", { JOB_COMPLETION_INDEX: "1", JOB_COMPLETIONS: "3" })).toMatchObject({ index: 2, count: 3 });
  });

  it("names auto among what it expects", () => {
    expect(refusal(() => parseShard("0/2", {}))).toBe(`--shard expects i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, or auto, got "0/2"`);
  });
});

describe("shardFromEnvironment", () => {
  it("runs shard 2 of 3 in the pod of a Kubernetes Indexed Job whose JOB_COMPLETION_INDEX is 1", () => {
    expect(shardFromEnvironment({ JOB_COMPLETION_INDEX: "1", JOB_COMPLETIONS: "3" })).toEqual({
      index: 2,
      count: 3,
      source: "JOB_COMPLETION_INDEX=1, JOB_COMPLETIONS=3 (a Kubernetes Indexed Job)",
    });
  });

  it("reads a CI matrix's 0-based job index and job total", () => {
    expect(shardFromEnvironment({ RECOLLECT_SHARD_INDEX: "0", RECOLLECT_SHARD_TOTAL: "4" })).toMatchObject({ index: 1, count: 4 });
    expect(shardFromEnvironment({ RECOLLECT_SHARD_INDEX: "3", RECOLLECT_SHARD_TOTAL: "4" })).toMatchObject({ index: 4, count: 4 });
  });

  it("takes both engines' variables when they agree", () => {
    const env = { JOB_COMPLETION_INDEX: "2", JOB_COMPLETIONS: "5", RECOLLECT_SHARD_INDEX: "2", RECOLLECT_SHARD_TOTAL: "5" };
    expect(shardFromEnvironment(env)).toMatchObject({ index: 3, count: 5 });
  });

  it.each([
    [{}, "--shard auto: no shard is named in the environment: set JOB_COMPLETION_INDEX and JOB_COMPLETIONS (a Kubernetes Indexed Job, see examples/kubernetes/), or RECOLLECT_SHARD_INDEX and RECOLLECT_SHARD_TOTAL (a CI matrix, see examples/github-actions/)"],
    [{ JOB_COMPLETION_INDEX: "1" }, "--shard auto: JOB_COMPLETION_INDEX is set but JOB_COMPLETIONS is not; a Kubernetes Indexed Job sets both (see examples/kubernetes/)"],
    [{ RECOLLECT_SHARD_TOTAL: "4" }, "--shard auto: RECOLLECT_SHARD_TOTAL is set but RECOLLECT_SHARD_INDEX is not; a CI matrix sets both (see examples/github-actions/)"],
    [{ JOB_COMPLETION_INDEX: "3", JOB_COMPLETIONS: "3" }, '--shard auto: JOB_COMPLETION_INDEX is "3", but the 0-based index of 3 shards runs from 0 to 2'],
    [{ JOB_COMPLETION_INDEX: "-1", JOB_COMPLETIONS: "3" }, '--shard auto: JOB_COMPLETION_INDEX is "-1", not a whole number'],
    [{ JOB_COMPLETION_INDEX: "", JOB_COMPLETIONS: "3" }, '--shard auto: JOB_COMPLETION_INDEX is "", not a whole number'],
    [{ JOB_COMPLETION_INDEX: "0", JOB_COMPLETIONS: "0" }, `--shard auto: JOB_COMPLETIONS is "0", not a whole number of shards from 1 to ${MAX_SHARDS}`],
    [{ JOB_COMPLETION_INDEX: "0", JOB_COMPLETIONS: "${{ strategy.job-total }}" }, `--shard auto: JOB_COMPLETIONS is "\${{ strategy.job-total }}", not a whole number of shards from 1 to ${MAX_SHARDS}`],
    [{ RECOLLECT_SHARD_INDEX: "0", RECOLLECT_SHARD_TOTAL: "99999999999999999999" }, `--shard auto: RECOLLECT_SHARD_TOTAL is "99999999999999999999", not a whole number of shards from 1 to ${MAX_SHARDS}`],
    [{ RECOLLECT_SHARD_INDEX: "1.5", RECOLLECT_SHARD_TOTAL: "4" }, '--shard auto: RECOLLECT_SHARD_INDEX is "1.5", not a whole number'],
    [
      { JOB_COMPLETION_INDEX: "1", JOB_COMPLETIONS: "3", RECOLLECT_SHARD_INDEX: "0", RECOLLECT_SHARD_TOTAL: "3" },
      "--shard auto: JOB_COMPLETION_INDEX=1, JOB_COMPLETIONS=3 (a Kubernetes Indexed Job) names shard 2/3, but RECOLLECT_SHARD_INDEX=0, RECOLLECT_SHARD_TOTAL=3 (a CI matrix) names shard 1/3",
    ],
  ])("refuses %j with one line", (env, message) => {
    expect(refusal(() => shardFromEnvironment(env as Record<string, string>))).toBe(message);
  });

  it("knows the variables the README and the examples name", () => {
    const readme = readFileSync(repoPath("README.md"), "utf8");
    for (const source of SHARD_SOURCES) for (const name of [source.index, source.count]) expect(readme).toContain(`\`${name}\``);
  });
});

/**
 * The engines simulated: the CLI run with the environment a Kubernetes Indexed Job's pod and a CI
 * matrix's job have, each shard a run of its own, then merged, as the examples do. The runs are
 * in this process, each given its environment as the binary is given its process's.
 */
describe("recollect experiment --shard auto, run with an engine's environment", () => {
  const sandbox = useSandbox();
  sandbox.write(
    "experiments/tiny.yaml",
    ["name: tiny", "description: a small grid", "scenarios: [../scenarios/stream-example.yaml]", "allowOutside: true", "ablations: [full, no-touch, relevance-only]", "seeds: [1, 2]"].join("\n"),
  );
  const run = (env: Record<string, string>) => runCli(["experiment", "experiments/tiny.yaml", "--workers", "1", "--shard", "auto"], sandbox.dir, { env });
  let pods: CliOutcome[];
  let missingCount: CliOutcome;
  let merged: CliOutcome;
  let whole: CliOutcome;

  beforeAll(async () => {
    pods = [];
    // Shards 1 and 3 from a CI matrix, shard 2 from a Kubernetes pod: the variables differ, the shards do not.
    pods.push(await run({ RECOLLECT_SHARD_INDEX: "0", RECOLLECT_SHARD_TOTAL: "3" }));
    pods.push(await run({ JOB_COMPLETION_INDEX: "1", JOB_COMPLETIONS: "3" }));
    pods.push(await run({ RECOLLECT_SHARD_INDEX: "2", RECOLLECT_SHARD_TOTAL: "3" }));
    missingCount = await run({ JOB_COMPLETION_INDEX: "1" });
    merged = await runCli(["merge", "results/shards/tiny.1-of-3.json", "results/shards/tiny.2-of-3.json", "results/shards/tiny.3-of-3.json", "--out", "merged.json"], sandbox.dir);
    whole = await runCli(["experiment", "experiments/tiny.yaml", "--workers", "1"], sandbox.dir);
  }, 300_000);

  it("runs shard 2 of 3 where JOB_COMPLETION_INDEX is 1 and JOB_COMPLETIONS 3, and says where it read that", () => {
    const pod = pods[1]!;
    expect(pod.code, pod.stderr).toBe(0);
    expect(pod.stdout).toContain("--shard auto: running shard 2/3, as JOB_COMPLETION_INDEX=1, JOB_COMPLETIONS=3 (a Kubernetes Indexed Job) says");
    expect(pod.stdout).toContain("tiny: shard 2/3 written to results/shards/tiny.2-of-3.json");
    expect(parseResults("shard", readFileSync(sandbox.path("results/shards/tiny.2-of-3.json"), "utf8")).manifest.shard).toMatchObject({ index: 2, count: 3 });
  });

  it("runs the CI matrix's jobs 0 and 2 as shards 1 and 3", () => {
    expect(pods.map((p) => p.code)).toEqual([0, 0, 0]);
    expect(existsSync(sandbox.path("results/shards/tiny.1-of-3.json"))).toBe(true);
    expect(existsSync(sandbox.path("results/shards/tiny.3-of-3.json"))).toBe(true);
  });

  it("refuses a pod without its completion count in one line, exit 2, writing nothing", () => {
    expect(missingCount.code).toBe(2);
    expect(missingCount.stderr).toBe(
      "recollect: --shard auto: JOB_COMPLETION_INDEX is set but JOB_COMPLETIONS is not; a Kubernetes Indexed Job sets both (see examples/kubernetes/)\n",
    );
    expect(missingCount.stdout).toBe("");
  });

  it("merges the three shards into the results of an unsharded run", () => {
    expect(merged.code, merged.stderr).toBe(0);
    expect(whole.code, whole.stderr).toBe(0);
    const read = (file: string) => parseResults(file, readFileSync(sandbox.path(file), "utf8"));
    expect(stableContent(read("merged.json"))).toBe(stableContent(read("results/tiny.json")));
  });
});

import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { SHARD_SOURCES } from "../../src/cli/shard.js";
import { repoPath } from "../harness/temp-files.js";

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: {
    shard: { strategy: { matrix: { shard: number[] } }; env: Record<string, string>; steps: Step[] };
    merge: { needs: string; steps: Step[] };
  };
}

const workflow = parse(readFileSync(repoPath("examples/github-actions/shards.yml"), "utf8")) as Workflow;
const matrix = SHARD_SOURCES.find((s) => s.engine === "a CI matrix")!;

/** The GitHub Actions example: the shards as matrix entries, each uploaded as an artifact, then a merge job. */
describe("examples/github-actions", () => {
  const { shard, merge } = workflow.jobs;

  it("sets the variables the code reads from the matrix's job index and total", () => {
    expect(shard.env).toEqual({ [matrix.index]: "${{ strategy.job-index }}", [matrix.count]: "${{ strategy.job-total }}" });
  });

  it("runs one shard per matrix entry with --shard auto and uploads it", () => {
    expect(shard.strategy.matrix.shard).toEqual(Array.from({ length: shard.strategy.matrix.shard.length }, (_, i) => i + 1));
    expect(shard.steps.map((s) => s.run)).toContain("npx recollect experiment experiments/core.yaml --shard auto --out out");
    const upload = shard.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"))!;
    expect(upload.with).toMatchObject({ name: "shard-${{ matrix.shard }}", path: "out/results/shards/" });
  });

  it("merges after every shard, from the downloaded artifacts", () => {
    expect(merge.needs).toBe("shard");
    const download = merge.steps.find((s) => s.uses?.startsWith("actions/download-artifact@"))!;
    expect(download.with).toMatchObject({ pattern: "shard-*", path: "shards", "merge-multiple": true });
    expect(merge.steps.map((s) => s.run)).toContain("npx recollect merge shards/core.*.json --out out/results/core.json");
  });

  it("is described in a README that names the variables", () => {
    const readme = readFileSync(repoPath("examples/github-actions/README.md"), "utf8");
    for (const name of [matrix.index, matrix.count, "strategy.job-index", "strategy.job-total"]) expect(readme).toContain(name);
  });
});

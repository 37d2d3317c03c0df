import { describe, expect, it } from "vitest";
import { renderJson, renderMarkdown } from "../../src/bench/report.js";
import { runBench } from "../../src/bench/run.js";
import { useTempDir } from "../harness/temp-files.js";
import { writeTinyExperiment } from "../harness/tiny-experiment.js";

const temp = useTempDir("recollect-bench-");

describe("bench", () => {
  it("reports every figure per size, the ratios against FTS5 and the floor, and the full block's growth", async () => {
    const lines: string[] = [];
    const grid = { file: writeTinyExperiment(temp), workers: [1] };
    const report = await runBench({ sizes: [100, 1_000], queries: 3, dim: 8, chunk: 400, tokeniserSample: 20, budgetMs: 60_000, grid }, (l) => lines.push(l));
    expect(report.sizes.map((s) => s.size)).toEqual([100, 1_000]);
    for (const s of report.sizes) {
      for (const figure of [s.stream, s.fts5, s.full, s.embedding, s.floor]) expect(figure.n).toBe(3);
      expect(s.ingest.n).toBe(Math.ceil(s.size / 400));
      expect(s.ingestFts5.n).toBe(s.ingest.n);
      for (const ratio of Object.values(s.ratios)) expect(ratio).toBeGreaterThan(0);
      expect(s.resident.vectorsPerMillionMb).toBe(32); // 8 floats of 4 bytes, a million times
      expect(s.resident.nonVectorPerMillionMb).toBeCloseTo(s.resident.perMillionMb - 32, 9);
    }
    expect(report.fullGrowth).toEqual([expect.objectContaining({ from: 100, to: 1_000 })]);
    expect(report.machine.loadAverage.start).toHaveLength(3);
    expect(JSON.parse(renderJson(report)).sizes).toHaveLength(2);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain("FTS5 bm25() top 5");
    expect(markdown).toContain("## Full block growth");
    expect(markdown).toContain("## Memory");
    expect(markdown).toMatch(/\|\s+N \| RSS before \(MB\) \| RSS after \(MB\) \| per million \(MB\) \| vectors per million \(MB\) \| rest per million \(MB\) \|/);
    expect(lines.some((l) => l.includes("query by query in turn"))).toBe(true);
    // The warm-up batch comes before the first size and is in no figure (see the ingest counts above).
    expect(lines[0]).toMatch(/^warm-up: one untimed batch/);
    expect(markdown).toContain("after untimed rounds");
    // The grid's row gives its CPU time beside its wall time.
    expect(report.grid).toEqual([expect.objectContaining({ experiment: "tiny", trials: 18, workers: 1 })]);
    expect(report.grid[0]!.cpuMs).toBeGreaterThan(0);
    expect(markdown).toContain("| experiment | trials | workers | wall (s) | CPU (s) |");
    // CPU time beside wall time: the bench's own work is CPU-bound, so the two are of one size.
    expect(report.totalCpuMs).toBeGreaterThan(0);
    expect(markdown).toMatch(/Bench wall time: \d+ s; CPU time \(user and system, every thread\): \d+ s\./);
  });
});

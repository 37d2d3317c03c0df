import { describe, expect, it } from "vitest";
import { cpuMsSince, percentileSorted, summarise, timeInterleaved } from "../../src/bench/stats.js";

describe("latency summary", () => {
  it("takes nearest-rank percentiles", () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentileSorted(sorted, 50)).toBe(50);
    expect(percentileSorted(sorted, 95)).toBe(95);
    expect(summarise([3, 1, 2])).toEqual({ n: 3, p50: 2, p95: 3, mean: 2 });
  });
});

describe("interleaved timing", () => {
  it("runs the compared figures in turn on the same inputs, starting with each in rotation", () => {
    const calls: string[] = [];
    const latencies = timeInterleaved([(i) => calls.push(`a${i}`), (i) => calls.push(`b${i}`)], { count: 3, budgetMs: 60_000, warmup: 1 });
    expect(calls).toEqual(["a0", "b0", "a1", "b1", "b2", "a2", "a3", "b3"]);
    expect(latencies.map((l) => l.n)).toEqual([3, 3]);
  });
});

describe("CPU time", () => {
  it("counts the process's CPU time since a start, in ms: busy work shows, waiting does not", async () => {
    const start = process.cpuUsage();
    const wallStart = performance.now();
    let x = 0;
    while (performance.now() - wallStart < 300) x += Math.sqrt(x + 1);
    const busy = cpuMsSince(start);
    expect(x).toBeGreaterThan(0);
    // Even on a machine shared many times over, 300 ms of spinning gets some of a core.
    expect(busy).toBeGreaterThan(10);
    const idleStart = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cpuMsSince(idleStart)).toBeLessThan(50);
  });
});

import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cpuMsSince, medianRatio, percentileSorted, summarise, timeInterleaved, timeRounds } from "../../src/bench/stats.js";

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

  it("gives each run's times round by round, and runs at least minRuns rounds past the budget", () => {
    const rounds = timeRounds([() => {}, () => {}], { count: 50, budgetMs: 0, warmup: 0, minRuns: 7 });
    expect(rounds.map((times) => times.length)).toEqual([7, 7]);
  });

  it("takes the median of each round's ratio, so that the machine's speed in each round divides out", () => {
    // a costs 1.1 times b in every round but one, while the machine's speed moves fourfold.
    expect(medianRatio([110, 440, 110, 900, 440], [100, 400, 100, 400, 400])).toBeCloseTo(1.1, 12);
    // Rounds in their order: [9, 1, 5] ÷ [1, 1, 1] has the median 5.
    expect(medianRatio([9, 1, 5], [1, 1, 1])).toBe(5);
    expect(() => medianRatio([1], [1, 2])).toThrow("1 times against 2");
  });
});

describe("CPU time", () => {
  it("counts the process's user and system CPU time since a start, in ms, as the kernel counts it: busy work shows", () => {
    const start = process.cpuUsage();
    const wallStart = performance.now();
    let x = 0;
    // Busy in this process's own code and in the kernel (a stat is a system call), so that both
    // user and system time grow.
    while (performance.now() - wallStart < 300) {
      x += Math.sqrt(x + 1);
      statSync(".");
    }
    // The kernel's count just before and just after, as a figure since the start. Not a wait that
    // must show (next to) nothing: every thread of the process counts, and in a shared test worker
    // the garbage collector and compiler threads may be busy with earlier tests' work during any wait.
    const sinceStart = ({ userCPUTime, systemCPUTime }: NodeJS.ResourceUsage) => (userCPUTime + systemCPUTime - start.user - start.system) / 1000;
    const before = sinceStart(process.resourceUsage());
    const busy = cpuMsSince(start);
    const after = sinceStart(process.resourceUsage());
    expect(x).toBeGreaterThan(0);
    expect(busy).toBeGreaterThanOrEqual(before);
    expect(busy).toBeLessThanOrEqual(after);
    // Even on a machine shared many times over, 300 ms of spinning gets some of a core.
    expect(busy).toBeGreaterThan(10);
  });
});

import { describe, expect, it } from "vitest";
import { fullPolicy } from "../../../src/memory/index.js";
import { resolveSweep } from "../../../src/harness/experiment/sweep-points.js";
import { sweepSchema } from "../../../src/harness/experiment/sweep-schema.js";
import { RecollectError } from "../../../src/shared/errors.js";

const resolve = (sweep: unknown) => resolveSweep("exp.yaml", sweepSchema.parse(sweep), fullPolicy);

describe("resolveSweep", () => {
  it("expands a grid into the cartesian product, the first parameter varying slowest, with ids p001…", () => {
    const sweep = resolve({
      grid: { "score.weights": [[1, 1, 1], [1, 0, 0]], "score.kindDecay.episodic": [0.9, 0.99, 1] },
      objective: { metric: "recall_any@5" },
    });
    expect(sweep.points.map((p) => p.id)).toEqual(["p001", "p002", "p003", "p004", "p005", "p006"]);
    expect(sweep.points.map((p) => [p.values["score.weights"], p.values["score.kindDecay.episodic"]])).toEqual([
      [[1, 1, 1], 0.9],
      [[1, 1, 1], 0.99],
      [[1, 1, 1], 1],
      [[1, 0, 0], 0.9],
      [[1, 0, 0], 0.99],
      [[1, 0, 0], 1],
    ]);
    expect(sweep.points[3].policy.score.weights).toEqual([1, 0, 0]);
    expect(sweep.points[3].policy.score.kindDecay).toEqual({ ...fullPolicy.score.kindDecay, episodic: 0.9 });
  });

  it("reads durations where the parameter is a time, and labels each point by what it changes", () => {
    const sweep = resolve({ grid: { "score.unitMs": ["1h", "1d", "1w"] }, objective: { metric: "mrr" } });
    expect(sweep.points.map((p) => p.policy.score.unitMs)).toEqual([3_600_000, 86_400_000, 604_800_000]);
    expect(sweep.points[0].label).toBe("no change");
    expect(sweep.points[1].label).toContain("per hour → 0.995 per day");
  });

  it("turns touch off in every point when the sweep says so, and then one pass serves them all", () => {
    const off = resolve({ grid: { "score.decayRate": [0.9, 1] }, objective: { metric: "mrr" }, touch: "off" });
    expect(off.points.every((p) => !p.policy.touch)).toBe(true);
    expect(off.sharedTimeline).toBe(true);
    expect(off.points[0].label).not.toContain("touch");
    const on = resolve({ grid: { "score.decayRate": [0.9, 1] }, objective: { metric: "mrr" } });
    expect(on.sharedTimeline).toBe(false);
  });

  it("draws random points from the declared ranges, the same for the same seed", () => {
    const spec = { random: { points: 20, seed: 7, ranges: { "score.decayRate": [0.9, 1], "score.weights": [[0, 0, 0], [3, 1, 2]] } }, objective: { metric: "mrr" } };
    const a = resolve(spec);
    expect(a.points).toHaveLength(20);
    for (const p of a.points) {
      expect(p.policy.score.decayRate).toBeGreaterThanOrEqual(0.9);
      expect(p.policy.score.decayRate).toBeLessThanOrEqual(1);
      p.policy.score.weights.forEach((w, i) => expect(w).toBeLessThanOrEqual([3, 1, 2][i]));
    }
    expect(resolve(spec).points.map((p) => p.values)).toEqual(a.points.map((p) => p.values));
  });

  it("refuses invalid points with one message listing each offending point by its values", () => {
    const bad = () => resolve({ grid: { "score.decayRate": [0.5, 1.5, 2], "score.unitMs": ["1h"] }, objective: { metric: "mrr" } });
    expect(bad).toThrow(RecollectError);
    expect(bad).toThrow(/2 of 3 points are not valid policies: p002 \(score\.decayRate 1\.5, score\.unitMs 1h\): score\.decayRate: .*; p003 \(score\.decayRate 2/);
  });

  it("refuses a parameter that is not a policy setting", () => {
    expect(() => resolve({ grid: { "score.weigths": [[1, 1, 1]] }, objective: { metric: "mrr" } })).toThrow(/score\.weigths|weigths/);
  });

  it("asks for a grid or random points, not both", () => {
    expect(sweepSchema.safeParse({ objective: { metric: "mrr" } }).success).toBe(false);
    expect(sweepSchema.safeParse({ grid: { "score.decayRate": [1] }, random: { points: 1, seed: 1, ranges: {} }, objective: { metric: "mrr" } }).success).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import {
  bootstrapMeanCI,
  createRng,
  LARGE_SAMPLE,
  normalMeanInterval,
  normalSignFlipP,
  signFlipTest,
} from "../../../src/harness/stats/index.js";
import { normals } from "./synthetic.js";

describe("large samples use the normal limits of the resampling methods", () => {
  it("the normal interval agrees with the bootstrap just below the threshold", () => {
    const values = normals(createRng(7), LARGE_SAMPLE, 0.4, 1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const boot = bootstrapMeanCI(values, { seed: 1, resamples: 4000 });
    const normal = normalMeanInterval(values, mean, 0.95);
    expect(normal.lo).toBeCloseTo(boot.lo, 2);
    expect(normal.hi).toBeCloseTo(boot.hi, 2);
  });

  it("the normal sign-flip p agrees with the resampled p just below the threshold", () => {
    const diffs = normals(createRng(8), LARGE_SAMPLE, 0.04, 1);
    const resampled = signFlipTest(diffs, { seed: 2, resamples: 20_000 });
    const sum = diffs.reduce((a, b) => a + b, 0);
    const squares = diffs.reduce((a, b) => a + b * b, 0);
    expect(Math.abs(normalSignFlipP(sum, squares, 20_000) - resampled.p)).toBeLessThan(0.01);
  });

  it("above the threshold bootstrapMeanCI and signFlipTest switch to the normal forms", () => {
    const values = normals(createRng(9), LARGE_SAMPLE + 1, 0, 1);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(bootstrapMeanCI(values, { seed: 3 })).toEqual({ mean, ...normalMeanInterval(values, mean, 0.95), n: values.length });
    const shifted = values.map((v) => v + 1);
    const { p } = signFlipTest(shifted, { seed: 4, resamples: 10_000 });
    // A shift of one sd over 2,001 pairs: far beyond what 10,000 resamples resolve, so the floor.
    expect(p).toBe(1 / 10_001);
  });

  it("never reports p = 0", () => {
    expect(normalSignFlipP(1e6, 1, 100)).toBe(1 / 101);
  });
});

import { describe, expect, it } from "vitest";
import {
  bootstrapMeanCI,
  createRng,
  exactSignTestP,
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
    const ci = bootstrapMeanCI(values, { seed: 3 });
    const normal = normalMeanInterval(values, ci.mean, 0.95);
    expect(ci.mean).toBeCloseTo(mean, 12);
    expect([ci.lo, ci.hi, ci.n]).toEqual([normal.lo, normal.hi, values.length]);
    const shifted = values.map((v) => v + 1);
    const { p } = signFlipTest(shifted, { seed: 4, resamples: 10_000 });
    // A shift of one sd over 2,001 pairs: far beyond what 10,000 resamples resolve, so the floor.
    expect(p).toBe(1 / 10_001);
  });

  it("never reports p = 0", () => {
    expect(normalSignFlipP(1e6, 1, 100)).toBe(1 / 101);
    expect(exactSignTestP(5_000, 5_000, 10_000)).toBe(1 / 10_001);
  });

  it("0/1 differences get the exact binomial sign test", () => {
    // Ten losses out of ten: only the observed signs and their mirror are as extreme, 2 of 2^10.
    expect(exactSignTestP(10, 10, 10_000)).toBeCloseTo(2 / 1024, 12);
    // 7 wins, 3 losses: |2B − 10| ≥ 4 for B ∈ {0,1,2,3,7,8,9,10}: (1+10+45+120)·2 / 1024.
    expect(exactSignTestP(10, 4, 10_000)).toBeCloseTo(352 / 1024, 12);
    const diffs = [1, 1, 1, 1, 1, 1, 1, -1, -1, -1, 0, 0];
    expect(signFlipTest(diffs, { seed: 5 }).p).toBeCloseTo(352 / 1024, 12);
  });
});

describe("the normal interval", () => {
  it("stays within the range of the values, as a bootstrap interval does", () => {
    const rare = Array.from({ length: 1_000 }, (_, i) => (i === 0 ? 1 : 0));
    const { lo, hi } = normalMeanInterval(rare, 0.001, 0.95);
    expect(lo).toBe(0);
    expect(hi).toBeGreaterThan(0.001);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exactSignTestP, LARGE_SAMPLE, normalSignFlipP } from "../../../src/harness/stats/large-sample.js";
import { createRng, type Rng } from "../../../src/harness/stats/rng.js";
import { pairedDifferences, signFlipTest } from "../../../src/harness/stats/sign-flip.js";
import { normals } from "./synthetic.js";

describe("pairedDifferences", () => {
  it("subtracts the first sample from the second, pair by pair", () => {
    expect(pairedDifferences([1, 2, 3], [1.5, 2, 2])).toEqual([0.5, 0, -1]);
  });

  it("refuses samples of different lengths", () => {
    expect(() => pairedDifferences([1, 2], [1, 2, 3])).toThrow(/2 and 3/);
  });

  it("refuses non-finite scores", () => {
    expect(() => pairedDifferences([1, Number.POSITIVE_INFINITY], [1, 2])).toThrow(
      /^pairedDifferences: a\[1\] must be a finite number, got Infinity$/,
    );
    expect(() => pairedDifferences([1, 2], [Number.NaN, 2])).toThrow(/^pairedDifferences: b\[0\] must be a finite number, got NaN$/);
  });
});

describe("signFlipTest", () => {
  it("reports the mean difference", () => {
    expect(signFlipTest([0.5, 0, -1, 2.5], { seed: 1, resamples: 10 }).meanDiff).toBeCloseTo(0.5, 12);
  });

  it("gives p = 1 when there are no differences or all are zero", () => {
    expect(signFlipTest([], { seed: 1 })).toEqual({ meanDiff: 0, p: 1, n: 0 });
    expect(signFlipTest([0, 0, 0], { seed: 1 })).toEqual({ meanDiff: 0, p: 1, n: 3 });
  });

  it("never reports p = 0, even when no flip comes close to the observed mean", () => {
    // With 40 equal positive differences only the all-plus and all-minus assignments (2 of 2^40)
    // reach the observed |mean|, so practically no resample does and p = 1/(resamples + 1).
    const { p } = signFlipTest(new Array<number>(40).fill(1), { seed: 1, resamples: 999 });
    expect(p).toBe(1 / 1000);
  });

  it("keeps p in [1/(resamples + 1), 1] for any differences", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { maxLength: 20 }),
        fc.integer(),
        (diffs, seed) => {
          const { p } = signFlipTest(diffs, { seed, resamples: 50 });
          expect(p).toBeGreaterThanOrEqual(1 / 51);
          expect(p).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("estimates the exact permutation p-value of a small case", () => {
    // Of the 8 sign assignments of [0.1, 0.2, 0.3], only +++ and −−− reach |sum| = 0.6: p = 2/8.
    const { p } = signFlipTest([0.1, 0.2, 0.3], { seed: 5, resamples: 20_000 });
    expect(p).toBeGreaterThan(0.24);
    expect(p).toBeLessThan(0.26);
  });

  it("counts a flip that ties the observed mean up to rounding as at least as extreme", () => {
    // 0.1 + 0.2 − 0.3 is 0 in exact arithmetic, so flipping those three leaves |sum| = 0.01,
    // a tie: every assignment is at least as extreme and p = 1. In floating point the flipped
    // sum comes out 1e-16 smaller, and without a tolerance p would drop below 1.
    expect(signFlipTest([0.1, 0.2, -0.3, 0.01], { seed: 3, resamples: 2000 }).p).toBe(1);
  });

  it("gives identical output for the same seed and different draws for another", () => {
    const diffs = normals(createRng(8), 30, 0.2);
    const a = signFlipTest(diffs, { seed: 1 });
    expect(signFlipTest(diffs, { seed: 1 })).toEqual(a);
    expect(signFlipTest(diffs, { seed: 2 }).p).not.toBe(a.p);
  });

  it("refuses non-finite differences and a bad resample count", () => {
    expect(() => signFlipTest([1, Number.NaN], { seed: 1 })).toThrow(/^signFlipTest: diffs\[1\] must be a finite number, got NaN$/);
    expect(() => signFlipTest([1, 2], { seed: 1, resamples: 1.5 })).toThrow(
      /^signFlipTest: resamples must be a positive integer, got 1.5$/,
    );
  });

  it("enumerates every sign assignment of a few differences, for an exact p", () => {
    // [1, 2, 3, 4]: only ++++ and −−−− reach |sum| = 10, so p = 2/16.
    expect(signFlipTest([1, 2, 3, 4], { seed: 1, resamples: 1 }).p).toBe(0.125);
    // [1, 1, 2]: |sum| 4 is reached by +++ and −−− of 8 assignments; zeros do not count.
    expect(signFlipTest([1, 0, 1, 2, 0], { seed: 1, resamples: 1 }).p).toBe(0.25);
    // Sixteen differences are still enumerated: the all-plus pair of 65,536 assignments.
    const sixteen = Array.from({ length: 16 }, (_, i) => 1 + i / 100);
    expect(signFlipTest(sixteen, { seed: 1, resamples: 1 }).p).toBe(2 / 65_536);
  });

  it("gives the same p whatever the unit of the differences", () => {
    // The tolerance for rounding scales with the differences: a millionth of [1, 2, 3, 4] still
    // has p = 2/16, not a p inflated by ties that are not there.
    expect(signFlipTest([1e-6, 2e-6, 3e-6, 4e-6], { seed: 1, resamples: 1 }).p).toBe(0.125);
    expect(signFlipTest([1e6, 2e6, 3e6, 4e6], { seed: 1, resamples: 1 }).p).toBe(0.125);
  });

  it("gives p = 1/(resamples + 1) when no random assignment is as extreme as the observed one", () => {
    // 40 distinct positive differences: only the all-plus assignment (1 in 2^40) reaches the
    // observed sum, so no draw does and p counts the observed assignment alone.
    const diffs = Array.from({ length: 40 }, (_, i) => 1 + i / 100);
    expect(signFlipTest(diffs, { seed: 1, resamples: 999 }).p).toBe(1 / 1000);
  });

  it("draws the same p for the same differences, whatever labelled stream asked", () => {
    const diffs = normals(createRng(9), 60, 0.2);
    const root = createRng(5);
    expect(signFlipTest(diffs, { seed: root }).p).toBe(signFlipTest(diffs, { seed: createRng(5) }).p);
  });

  it("uses the exact binomial sign test when every non-zero difference has one size", () => {
    // Twenty differences of size 2, fifteen up and five down: k = |15 − 5| = 10 steps of 2.
    const diffs = [...new Array<number>(15).fill(2), ...new Array<number>(5).fill(-2)];
    expect(signFlipTest(diffs, { seed: 1, resamples: 999 }).p).toBe(exactSignTestP(20, 10, 999));
    // Sizes that differ by rounding only (within 1e-12 of the first) still count as one size.
    const rounded = diffs.map((d, i) => (i === 3 ? d + 1e-12 : d));
    expect(signFlipTest(rounded, { seed: 1, resamples: 999 }).p).toBe(exactSignTestP(20, 10, 999));
    // The bound is inclusive: 10^12 + 1 differs from 10^12 by exactly 10^-12 of it.
    const atBound = diffs.map((d, i) => (i === 3 ? 1e12 + 1 : d * 5e11));
    expect(signFlipTest(atBound, { seed: 1, resamples: 999 }).p).toBe(exactSignTestP(20, 10, 999));
    // Zeros are neither up nor down: they leave the test as it was.
    expect(signFlipTest([0, ...diffs, 0], { seed: 1, resamples: 999 }).p).toBe(exactSignTestP(20, 10, 999));
  });

  it("uses the normal limit above LARGE_SAMPLE non-zero differences, and resamples up to it", () => {
    const diffs = normals(createRng(12), LARGE_SAMPLE + 1, 0.05);
    const sum = diffs.reduce((a, d) => a + d, 0);
    const sumOfSquares = diffs.reduce((a, d) => a + d * d, 0);
    expect(signFlipTest(diffs, { seed: 1, resamples: 99 }).p).toBe(normalSignFlipP(sum, sumOfSquares, 99));
    // Exactly LARGE_SAMPLE differences are still resampled: p is a count over resamples + 1.
    const { p } = signFlipTest(diffs.slice(1), { seed: 1, resamples: 99 });
    expect(p * 100).toBeCloseTo(Math.round(p * 100), 9);
    expect(p).not.toBe(normalSignFlipP(sum - diffs[0], sumOfSquares - diffs[0] ** 2, 99));
  });

  it("flips the signs given by the bits of each draw, thirty differences per draw", () => {
    // 31 differences: a draw of 30 bits signs the first 30, a second draw signs the 31st. A
    // scripted stream makes the assignments known. All bits set flips every sign: |sum| ties the
    // observed one. No bits set reproduces it. 1 flips only the first difference: below it.
    const diffs = Array.from({ length: 31 }, (_, i) => 1 + i / 64);
    const draws = [(1 << 30) - 1, 1, 0, 0, 1, 0];
    const scripted: Rng = {
      nextInt: () => draws.shift()!,
      nextFloat: () => 0,
      shuffle: (items) => items.slice(),
      fork: () => scripted,
    };
    // Resample 1: all 30 flipped, then the 31st flipped too → −sum, as extreme. Resample 2: none
    // flipped → the observed sum. Resample 3: the first difference alone flipped → less extreme.
    expect(signFlipTest(diffs, { seed: scripted, resamples: 3 }).p).toBe((2 + 1) / (3 + 1));
  });

  it("keeps resampling the non-zero differences only", () => {
    // The stream of draws is keyed by the differences that move, so zeros change nothing.
    const diffs = normals(createRng(13), 40, 0.3);
    expect(signFlipTest([0, ...diffs, 0, 0], { seed: 4, resamples: 500 }).p).toBe(signFlipTest(diffs, { seed: 4, resamples: 500 }).p);
  });
});

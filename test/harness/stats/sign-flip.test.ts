import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRng } from "../../../src/harness/stats/rng.js";
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
    expect(() => pairedDifferences([1, Number.POSITIVE_INFINITY], [1, 2])).toThrow(/a\[1\]/);
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
    expect(() => signFlipTest([1, Number.NaN], { seed: 1 })).toThrow(RangeError);
    expect(() => signFlipTest([1, 2], { seed: 1, resamples: 1.5 })).toThrow(RangeError);
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
});

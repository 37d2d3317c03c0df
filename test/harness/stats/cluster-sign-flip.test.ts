import { describe, expect, it } from "vitest";
import { clusterSignFlip, EXACT_CLUSTER_MAX } from "../../../src/harness/stats/cluster-sign-flip.js";
import { reduceToClusters } from "../../../src/harness/stats/clusters.js";

/** One item per cluster, with these values. */
const oneEach = (values: number[]) => reduceToClusters("t", values, { clusters: values.map((_, c) => c) });

/** The exact p at shift δ, by brute force over every sign assignment of the shifted cluster totals. */
function bruteP(totals: number[], sizes: number[], delta: number): number {
  const shifted = totals.map((t, c) => t - sizes[c] * delta);
  const observed = Math.abs(shifted.reduce((a, b) => a + b, 0));
  let count = 0;
  for (let mask = 0; mask < 2 ** shifted.length; mask++) {
    const flipped = shifted.reduce((a, t, c) => a + (mask & (1 << c) ? -t : t), 0);
    if (Math.abs(flipped) >= observed - 1e-12) count++;
  }
  return count / 2 ** shifted.length;
}

describe("clusterSignFlip", () => {
  it("gives the exact p 2/2^C when every cluster moves the same way, whatever the rounding", () => {
    // +1/3 in 4 clusters, computed two ways: only all-plus and all-minus reach the observed sum.
    const rounded = clusterSignFlip(oneEach([2 / 3 - 1 / 3, 1 - 2 / 3, 2 / 3 - 1 / 3, 1 - 2 / 3]), 0.05);
    const exact = clusterSignFlip(oneEach([1 / 3, 1 / 3, 1 / 3, 1 / 3]), 0.05);
    expect(rounded.p).toBe(0.125);
    expect(exact.p).toBe(0.125);
    expect(rounded.smallestP).toBe(0.125);
  });

  it("gives 0.0625 for a loss on each of 5 seeds, the seed as the unit", () => {
    expect(clusterSignFlip(oneEach([-1 / 3, -1 / 3, -1 / 3, -1 / 3, -1 / 3]), 0.05).p).toBe(0.0625);
  });

  it("cannot reject with too few clusters, so its interval is the whole range it is given", () => {
    // 2/2^5 = 0.0625 ≥ 0.05: no data on 5 clusters is significant at 5%.
    const { lo, hi } = clusterSignFlip(oneEach([-1, -1, -1, -1, -1]), 0.05, [-1, 1]);
    expect([lo, hi]).toEqual([-1, 1]);
    expect(clusterSignFlip(oneEach([-1, -1, -1, -1, -1]), 0.05)).toMatchObject({ lo: -Infinity, hi: Infinity });
  });

  // 0.125 · 2^8 is a whole count of assignments: the level where "p ≥ α" and "p > α" part.
  it.each([0.05, 0.125])("matches a brute-force enumeration of p on unequal clusters, at 0 and along the shifts (α = %s)", (alpha) => {
    // Values with no simple sums, so no two assignments end their intervals at the same shift.
    const values = [0.913, 0.127, 0.442, 0.861, 0.309, 0.218, 0.731, 0.654, 0.519, 0.057, 0.368, 0.779];
    const clusters = [0, 0, 1, 2, 2, 2, 3, 4, 4, 5, 6, 7];
    const data = reduceToClusters("t", values, { clusters });
    const totals = Array.from(data.totals);
    const sizes = Array.from(data.sizes);
    const result = clusterSignFlip(data, alpha);
    expect(result.p).toBeCloseTo(bruteP(totals, sizes, 0), 12);
    // The interval is exactly the shifts the test does not reject: inside, p ≥ α; just outside, p < α.
    const width = result.hi - result.lo;
    for (const f of [0.001, 0.25, 0.5, 0.75, 0.999]) expect(bruteP(totals, sizes, result.lo + f * width)).toBeGreaterThanOrEqual(alpha);
    expect(bruteP(totals, sizes, result.lo - 1e-6)).toBeLessThan(alpha);
    expect(bruteP(totals, sizes, result.hi + 1e-6)).toBeLessThan(alpha);
  });

  it("excludes 0 from its interval exactly when p < α", () => {
    for (const values of [
      [0.2, 0.3, 0.1, 0.4, 0.25, 0.15, 0.35, -0.05],
      [0.2, 0.3, 0.1, 0.4, 0.25, 0.15, 0.35, 0.05],
      [0.2, -0.3, 0.1, 0.4, -0.25, 0.15, 0.35, 0.05],
    ]) {
      const { p, lo, hi } = clusterSignFlip(oneEach(values), 0.05);
      expect(p < 0.05).toBe(lo > 0 || hi < 0);
    }
  });

  it("is 1 with a zero interval around 0 when nothing differs", () => {
    expect(clusterSignFlip(oneEach([0, 0, 0, 0, 0, 0]), 0.05)).toMatchObject({ p: 1, lo: 0, hi: 0 });
  });

  it("has a closed form for many clusters that all agree: p = 2/2^C and the mean as its interval", () => {
    const clusters = Array.from({ length: 20 }, (_, c) => c).flatMap((c) => (c % 2 === 0 ? [c] : [c, c]));
    const result = clusterSignFlip(reduceToClusters("t", clusters.map(() => 0.5), { clusters }), 0.05);
    expect(20).toBeGreaterThan(EXACT_CLUSTER_MAX);
    expect(result.p).toBe(2 / 2 ** 20);
    expect(result.lo).toBeCloseTo(0.5, 6);
    expect(result.hi).toBeCloseTo(0.5, 6);
  });

  it.each([60, 418, 1100])("answers at once for %i clusters that all agree, past the 2^53 assignments a count can step through", (count) => {
    const clusters = Array.from({ length: count }, (_, c) => c);
    const data = reduceToClusters("t", clusters.map(() => 0.5), { clusters });
    expect(clusterSignFlip(data, 0.05)).toEqual({ p: Math.max(2 / 2 ** count, Number.MIN_VALUE), lo: expect.closeTo(0.5, 6), hi: expect.closeTo(0.5, 6), smallestP: Math.max(2 / 2 ** count, Number.MIN_VALUE) });
    // With α at or below the smallest p, no δ is rejected: the interval is the range given.
    expect(clusterSignFlip(data, 0, [0, 1])).toMatchObject({ lo: 0, hi: 1 });
  });

  it("enumerates every assignment at EXACT_CLUSTER_MAX clusters, where the clusters need not agree", () => {
    const values = Array.from({ length: EXACT_CLUSTER_MAX }, (_, c) => 0.3 + ((c * 0.137) % 0.5) - (c % 3 === 0 ? 0.4 : 0));
    const data = oneEach(values);
    expect(clusterSignFlip(data, 0.05).p).toBeCloseTo(bruteP(values, values.map(() => 1), 0), 12);
  });

  it("past EXACT_CLUSTER_MAX, gives p 1 when the agreeing clusters are all 0, and keeps the mean inside its interval otherwise", () => {
    const clusters = Array.from({ length: 30 }, (_, c) => c);
    expect(clusterSignFlip(reduceToClusters("t", clusters.map(() => 0), { clusters }), 0.05)).toMatchObject({ p: 1, lo: 0, hi: 0 });
    const { lo, hi } = clusterSignFlip(reduceToClusters("t", clusters.map(() => 0.25), { clusters }), 0.05);
    expect(lo).toBeLessThan(0.25);
    expect(hi).toBeGreaterThan(0.25);
    expect(hi - lo).toBeLessThan(1e-8);
  });

  it("keeps 0 in its interval when 0 is where an assignment's interval ends and p ≥ α: the tie tolerance widens both ends", () => {
    // Flipping -2 and 2 leaves the sum, so 0 ends that assignment's interval: p(0) counts it.
    const result = clusterSignFlip(oneEach([-2, 0, 2, -3]), 0.4);
    expect(result.p).toBe(0.75);
    expect(result.hi).toBeGreaterThan(0);
    expect(result.hi).toBeLessThan(1e-8);
  });

  it("is 1 with nothing to detect for no clusters at all", () => {
    expect(clusterSignFlip(reduceToClusters("t", [], { clusters: [] }), 0.05, [-1, 1])).toEqual({ p: 1, lo: -1, hi: 1, smallestP: 1 });
  });

  it("is 1 for a single cluster", () => {
    expect(clusterSignFlip(reduceToClusters("t", [0.4], { clusters: ["x"] }), 0.05).p).toBe(1);
  });
});

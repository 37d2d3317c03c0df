import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clusterSignFlip } from "../../../src/harness/stats/cluster-sign-flip.js";
import { reduceToClusters } from "../../../src/harness/stats/clusters.js";
import { holm } from "../../../src/harness/stats/holm.js";
import { westfallYoung } from "../../../src/harness/stats/westfall-young.js";

/** The marginal exact p of one comparison, from the test that decides it in the summary. */
function marginalP(totals: readonly number[]): number {
  return clusterSignFlip(reduceToClusters("t", [...totals], { clusters: totals.map((_, c) => c) }), 0).p;
}

/** T(g) of one comparison, the bits of `mask` flipping its clusters, computed from scratch. */
function stat(row: readonly number[], mask: number): number {
  const norm = Math.sqrt(row.reduce((a, t) => a + t * t, 0));
  return norm === 0 ? 0 : Math.abs(row.reduce((a, t, c) => a + (mask & (1 << c) ? -t : t), 0)) / norm;
}

/** The step-down maxT p-values by brute force: every sign vector, every comparison, no Gray code. */
function bruteWestfallYoung(totals: readonly (readonly number[])[]): number[] {
  const C = totals[0].length;
  const observed = totals.map((row) => stat(row, 0));
  const order = observed.map((_, j) => j).sort((a, b) => observed[b] - observed[a]);
  const raw = order.map((_, r) => {
    let count = 0;
    for (let mask = 0; mask < 2 ** C; mask++) {
      const u = Math.max(...order.slice(r).map((j) => stat(totals[j], mask)));
      if (u >= observed[order[r]] - 1e-9) count++;
    }
    return count / 2 ** C;
  });
  const adjusted: number[] = [];
  let max = 0;
  order.forEach((j, r) => {
    max = Math.max(max, raw[r]);
    adjusted[j] = max;
  });
  return adjusted;
}

describe("westfallYoung", () => {
  it("gives one comparison its marginal exact p, the exact cluster sign-flip test's", () => {
    // 0.3 − 0.1 − 0.2 = 0 ties the observed sum +0.6 − … exactly: a tie counts as extreme in both.
    for (const totals of [
      [0.5, 0.2, -0.1, 0.4, 0.3, -0.05, 0.25, 0.1],
      [0.3, -0.1, -0.2, 0.6, 0.05],
      [1 / 3, 1 / 3, 1 / 3, 1 / 3],
      [2 / 3 - 1 / 3, 1 - 2 / 3, 2 / 3 - 1 / 3, 1 - 2 / 3],
      [0, 0, 0],
    ]) {
      expect(westfallYoung([totals])).toEqual([marginalP(totals)]);
    }
  });

  it("agrees with the marginal exact p on any cluster totals", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -6, max: 6 }), { minLength: 2, maxLength: 10 }), (ints) => {
        const totals = ints.map((i) => i / 3);
        expect(westfallYoung([totals])[0]).toBe(marginalP(totals));
      }),
      { seed: 20240501, numRuns: 300 },
    );
  });

  it("gives the strongest of 36 comparisons 2/1024 when each moves the same way in all 10 clusters", () => {
    // Holm would need 36 · 2/1024 ≈ 0.07: nothing could pass α = 0.05 however large the effect.
    const family = Array.from({ length: 36 }, (_, j) => Array.from({ length: 10 }, (_, c) => 0.3 + 0.01 * ((j * 7 + c * 3) % 11)));
    const adjusted = westfallYoung(family);
    expect(Math.min(...adjusted)).toBe(2 / 1024);
    expect(Math.max(...adjusted)).toBeLessThan(0.05);
    expect(Math.min(...holm(family.map(marginalP)))).toBeGreaterThan(0.05);
  });

  it("matches the step-down maxT computed by brute force, in input order", () => {
    const family = [
      [0.4, 0.1, -0.2, 0.3, 0.2, 0.1],
      [0.1, -0.3, 0.2, 0.05, 0.1, -0.1],
      [0.3, 0.3, 0.3, 0.3, 0.3, -0.1],
      [0, 0, 0, 0, 0, 0],
      [-0.2, -0.1, -0.3, 0.05, -0.2, -0.1],
    ];
    const adjusted = westfallYoung(family);
    bruteWestfallYoung(family).forEach((p, j) => expect(adjusted[j]).toBeCloseTo(p, 12));
    // A comparison with no difference anywhere is never significant.
    expect(adjusted[3]).toBe(1);
  });

  it("is never below a comparison's marginal p, nor above single-step maxT's, and keeps the statistics' order", () => {
    // Bonferroni's m·p is no bound here: comparisons' exact null distributions differ, so another
    // comparison can reach the strongest's statistic under more sign vectors than it does itself.
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: -5, max: 5 }), { minLength: 6, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          const adjusted = westfallYoung(rows);
          const marginal = rows.map(marginalP);
          const observed = rows.map((row) => stat(row, 0));
          const maxima = Array.from({ length: 64 }, (_, mask) => Math.max(...rows.map((row) => stat(row, mask))));
          adjusted.forEach((p, j) => {
            expect(p).toBeGreaterThanOrEqual(marginal[j]);
            const singleStep = maxima.filter((u) => u >= observed[j] - 1e-9).length / 64;
            expect(p).toBeLessThanOrEqual(singleStep);
            rows.forEach((_, k) => {
              if (observed[k] > observed[j] + 1e-9) expect(adjusted[k]).toBeLessThanOrEqual(p);
            });
          });
        },
      ),
      { seed: 20240501, numRuns: 300 },
    );
  });

  it("does not depend on the order of the clusters or on the scale of a comparison", () => {
    const family = [
      [0.4, 0.1, -0.2, 0.3, 0.2],
      [0.1, -0.3, 0.2, 0.05, 0.1],
      [0.3, 0.3, 0.3, 0.25, 0.3],
    ];
    const reversed = family.map((row) => [...row].reverse());
    const scaled = family.map((row, j) => row.map((t) => t * 10 ** j));
    const flipped = family.map((row, j) => row.map((t) => (j === 1 ? -t : t)));
    const adjusted = westfallYoung(family);
    expect(westfallYoung(reversed)).toEqual(adjusted);
    westfallYoung(scaled).forEach((p, j) => expect(p).toBeCloseTo(adjusted[j], 12));
    expect(westfallYoung(flipped)).toEqual(adjusted);
  });

  it("refuses rows of different lengths, non-finite totals and more clusters than it can enumerate", () => {
    expect(westfallYoung([])).toEqual([]);
    expect(() => westfallYoung([[1, 2], [1]])).toThrow(/totals\[1\] has 1 clusters/);
    expect(() => westfallYoung([[1, Number.NaN]])).toThrow(/totals\[0\]\[1\] must be finite/);
    expect(() => westfallYoung([Array.from({ length: 13 }, () => 1)])).toThrow(/C ≤ 12/);
  });
});

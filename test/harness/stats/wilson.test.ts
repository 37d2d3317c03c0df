import tQuantile from "@stdlib/stats-base-dists-t-quantile";
import { describe, expect, it } from "vitest";
import { bellMcCaffreyDf } from "../../../src/harness/stats/cluster-robust.js";
import { reduceToClusters } from "../../../src/harness/stats/clusters.js";
import { clusteredWilsonInterval } from "../../../src/harness/stats/wilson.js";
import { bootstrapMeanCI } from "../../../src/harness/stats/bootstrap.js";

/** The Wilson score interval for a share `p` of `n` with critical value `z`. */
function wilson(p: number, n: number, z: number): [number, number] {
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [centre - half, centre + half];
}

describe("clusteredWilsonInterval", () => {
  it("is never the single point 1 when all 16 asks in 8 clusters succeed: the item count is the sample size", () => {
    const clusters = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8];
    const { mean, lo, hi, se } = clusteredWilsonInterval(reduceToClusters("t", clusters.map(() => 1), { clusters }), 0.95);
    expect([mean, hi, se]).toEqual([1, 1, 0]);
    // Equal sizes: df 7; Wilson at p̂ = 1 has lower end n / (n + t²).
    const t = tQuantile(0.975, 7);
    expect(lo).toBeCloseTo(16 / (16 + t * t), 9);
    expect(lo).toBeLessThan(0.8);
  });

  it("is the Wilson interval with the t quantile when the items are independent", () => {
    const values = Array.from({ length: 40 }, (_, i) => (i % 5 === 0 ? 1 : 0));
    const data = reduceToClusters("t", values, {});
    const { lo, hi } = clusteredWilsonInterval(data, 0.95);
    // Independent items: CR2 gives s/√n, so p̂(1 − p̂)/se² = n − 1 < n: the effective size is n − 1.
    const [expectedLo, expectedHi] = wilson(0.2, 39, tQuantile(0.975, 39));
    expect(lo).toBeCloseTo(expectedLo, 9);
    expect(hi).toBeCloseTo(expectedHi, 9);
  });

  it("shrinks the effective sample size when clusters differ, so it is wider than the independent interval", () => {
    const clusters = Array.from({ length: 80 }, (_, i) => Math.floor(i / 10));
    const values = clusters.map((c, i) => (c < 2 ? (i % 2) : i % 10 === 0 ? 1 : 0));
    const clustered = clusteredWilsonInterval(reduceToClusters("t", values, { clusters }), 0.95);
    const independent = clusteredWilsonInterval(reduceToClusters("t", values, {}), 0.95);
    expect(clustered.hi - clustered.lo).toBeGreaterThan(independent.hi - independent.lo);
    expect(clustered.df).toBeCloseTo(bellMcCaffreyDf(Float64Array.from({ length: 8 }, () => 10), 80), 9);
    expect(clustered.lo).toBeGreaterThanOrEqual(0);
  });
});

describe("bootstrapMeanCI with bounded values", () => {
  it("gives the clustered Wilson interval, whatever the structure", () => {
    const values = [1, 1, 1, 1];
    const interval = bootstrapMeanCI(values, { seed: 1, bounded: true });
    expect(interval.hi).toBe(1);
    expect(interval.lo).toBeLessThan(1);
    expect(interval).toMatchObject({ n: 4, nItems: 4, nClusters: 4 });
  });

  it("refuses a value outside [0, 1], naming itself", () => {
    expect(() => bootstrapMeanCI([0.5, 1.5], { seed: 1, bounded: true })).toThrow(
      /^bootstrapMeanCI: values\[1\] must lie in \[0, 1\] for a bounded interval, got 1\.5$/,
    );
  });
});

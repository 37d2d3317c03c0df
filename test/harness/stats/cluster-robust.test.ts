import { describe, expect, it } from "vitest";
import {
  bellMcCaffreyDf,
  clusterRobustMean,
  clusterRobustP,
  minimumDetectableEffect,
  tCritical,
} from "../../../src/harness/stats/cluster-robust.js";
import { reduceToClusters } from "../../../src/harness/stats/clusters.js";

describe("clusterRobustMean", () => {
  it("computes the CR2 variance of a mean by hand", () => {
    // Clusters x = {1, 3} and y = {2}: N = 3, mean 2. Residual totals: x 4 − 2·2 = 0, y 2 − 1·2 = 0.
    expect(clusterRobustMean(reduceToClusters("t", [1, 3, 2], { clusters: ["x", "x", "y"] })).se).toBe(0);
    // Clusters x = {0, 0}, y = {3}: mean 1; residual totals x 0 − 2 = −2, y 3 − 1 = 2.
    // V = (4 / (1 − 2/3) + 4 / (1 − 1/3)) / 9 = (12 + 6) / 9 = 2, so se = √2.
    const { mean, se } = clusterRobustMean(reduceToClusters("t", [0, 0, 3], { clusters: ["x", "x", "y"] }));
    expect(mean).toBe(1);
    expect(se).toBeCloseTo(Math.SQRT2, 12);
  });

  it("reduces to the usual standard error of a mean when every item is its own cluster", () => {
    // CR2 with singleton clusters is s/√n exactly: (1 − 1/n)⁻¹ undoes the residuals' shrinkage.
    const values = [0.2, 0.9, 0.4, 0.4, 0.7];
    const n = values.length;
    const mean = values.reduce((a, b) => a + b) / n;
    const s2 = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
    const { se, df } = clusterRobustMean(reduceToClusters("t", values, { items: [1, 2, 3, 4, 5] }));
    expect(se).toBeCloseTo(Math.sqrt(s2 / n), 12);
    expect(df).toBeCloseTo(n - 1, 9);
  });
});

describe("clusterRobustP", () => {
  it("is the two-sided t test of the mean on the Bell–McCaffrey degrees of freedom", () => {
    // Clusters x = {0, 0}, y = {3}: mean 1, se √2 (see above), df = 1: p = 2·(1 − T₁(1/√2)).
    const robust = clusterRobustMean(reduceToClusters("t", [0, 0, 3], { clusters: ["x", "x", "y"] }));
    expect(clusterRobustP(robust)).toBeCloseTo(1 - (2 / Math.PI) * Math.atan(Math.SQRT1_2), 12);
  });

  it("refuses a zero standard error, where t is undefined (the exact test decides there)", () => {
    expect(() => clusterRobustP({ mean: 1, se: 0, df: 3 })).toThrow(/positive standard error/);
  });
});

describe("clusterRobustMean's tolerance on se", () => {
  it("takes a standard error within rounding of the values for 0", () => {
    // +1/3 in each of 4 clusters, computed as 2/3 − 1/3 and as 1 − 2/3: the two differ in the
    // last bit, which without a tolerance leaves se ≈ 2e-17.
    const diffs = [2 / 3 - 1 / 3, 1 - 2 / 3, 2 / 3 - 1 / 3, 1 - 2 / 3];
    expect(diffs[0]).not.toBe(diffs[1]);
    expect(clusterRobustMean(reduceToClusters("t", diffs, { clusters: [1, 2, 3, 4] })).se).toBe(0);
  });

  it("keeps a small standard error that is variance, not rounding", () => {
    const diffs = [1e-6, 2e-6, 1e-6, 2e-6];
    expect(clusterRobustMean(reduceToClusters("t", diffs, { clusters: [1, 2, 3, 4] })).se).toBeGreaterThan(1e-7);
  });
});

describe("bellMcCaffreyDf", () => {
  it("is C − 1 for equal cluster sizes", () => {
    expect(bellMcCaffreyDf(Float64Array.from([10, 10, 10, 10, 10, 10, 10, 10]), 80)).toBeCloseTo(7, 9);
  });

  it("is smaller when a few large clusters carry most items", () => {
    const df = bellMcCaffreyDf(Float64Array.from([150, 150, 20, 20, 20, 20, 20, 20]), 420);
    expect(df).toBeLessThan(7);
    expect(df).toBeGreaterThanOrEqual(1);
  });
});

describe("tCritical and minimumDetectableEffect", () => {
  it("uses Student-t quantiles", () => {
    expect(tCritical(0.95, 7)).toBeCloseTo(2.364624, 5);
    expect(tCritical(0.95, 1e6)).toBeCloseTo(1.959964, 4);
  });

  it("is (t_{0.975} + t_{0.80}) times the standard error", () => {
    // With many degrees of freedom: (1.959964 + 0.841621) · se = 2.801585 · se.
    expect(minimumDetectableEffect(0.1, 1e6)).toBeCloseTo(0.2801585, 5);
    // With 7: (2.364624 + 0.896030) · se.
    expect(minimumDetectableEffect(1, 7)).toBeCloseTo(3.260654, 4);
  });
});

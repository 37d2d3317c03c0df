import { describe, expect, it } from "vitest";
import { clusterRobustMean, clusterRobustP, tCritical } from "../../../src/harness/stats/cluster-robust.js";
import { clusterSignFlip } from "../../../src/harness/stats/cluster-sign-flip.js";
import { clusteredP, clusteredTest } from "../../../src/harness/stats/clustered-test.js";
import { reduceToClusters } from "../../../src/harness/stats/clusters.js";

/** `count` clusters of 3 items with differing, mostly positive values. */
function clustersOf(count: number) {
  const clusters = Array.from({ length: 3 * count }, (_, i) => Math.floor(i / 3));
  const values = clusters.map((c, i) => 0.1 + ((c * 7 + i) % 5) / 10 - (c % 4 === 0 ? 0.5 : 0));
  return reduceToClusters("t", values, { clusters });
}

describe("clusteredTest", () => {
  it("decides by the exact sign-flip test with 12 clusters or fewer", () => {
    const data = clustersOf(12);
    const test = clusteredTest(data, 0.95);
    expect(test.method).toBe("exact-sign-flip");
    expect(test).toMatchObject(clusterSignFlip(data, 1 - 0.95));
  });

  it("decides by the CR2 t test with more clusters, with the interval mean ± t·se", () => {
    const data = clustersOf(13);
    const test = clusteredTest(data, 0.95);
    const robust = clusterRobustMean(data);
    expect(test.method).toBe("cr2-t");
    expect(test.p).toBe(clusterRobustP(robust));
    expect(test.lo).toBeCloseTo(robust.mean - tCritical(0.95, robust.df) * robust.se, 12);
    expect(test.hi).toBeCloseTo(robust.mean + tCritical(0.95, robust.df) * robust.se, 12);
  });

  it("decides by the exact test when many clusters all agree (se 0)", () => {
    const clusters = Array.from({ length: 40 }, (_, i) => Math.floor(i / 2));
    const test = clusteredTest(reduceToClusters("t", clusters.map(() => 0.25), { clusters }), 0.95);
    expect(test).toMatchObject({ method: "exact-sign-flip", se: 0, p: 2 / 2 ** 20 });
  });

  it("clips its interval to the range it is given and to nothing narrower", () => {
    const data = reduceToClusters("t", [0.9, 0.95, 0.99, 0.97], { clusters: [1, 2, 3, 4] });
    // Four clusters cannot reject at 5%: the interval is the whole range, not the data's [0.9, 0.99].
    expect(clusteredTest(data, 0.95, [-1, 1])).toMatchObject({ lo: -1, hi: 1 });
  });

  it("has the p of clusteredP, which skips the interval, under either method", () => {
    for (const count of [4, 8, 12, 13, 20]) expect(clusteredP(clustersOf(count))).toBe(clusteredTest(clustersOf(count), 0.95).p);
  });

  it("excludes 0 from its interval exactly when p < 1 − level, under either method", () => {
    for (const count of [6, 8, 12, 13, 20]) {
      const { p, lo, hi } = clusteredTest(clustersOf(count), 0.95);
      expect(p < 0.05).toBe(lo > 0 || hi < 0);
    }
  });
});

import { type ClusterRobustMean, clusterRobustMean, clusterRobustP, tCritical } from "./cluster-robust.js";
import { clusterSignFlip, EXACT_CLUSTER_MAX } from "./cluster-sign-flip.js";
import type { ClusteredValues } from "./clusters.js";

/** Which test decided: the CR2 t test with Bell–McCaffrey df, or the exact cluster sign-flip test. */
export type TestMethod = "cr2-t" | "exact-sign-flip";

export interface ClusteredTest extends ClusterRobustMean {
  /** Two-sided p of "the mean is 0" by `method`; never 0. */
  p: number;
  /** The interval of `method` at the level asked for: p < 1 − level exactly when it excludes 0. */
  lo: number;
  hi: number;
  method: TestMethod;
  /** The smallest p `method` can give on these clusters (2 / 2^C for the exact test). */
  smallestP: number;
}

/**
 * The test and interval of a clustered mean (of differences, usually) that decide its verdict.
 *
 * With EXACT_CLUSTER_MAX clusters or fewer, or when the cluster-robust se is 0 (every cluster
 * agrees, up to rounding), the exact cluster sign-flip test and its inversion: its p is exact
 * whatever the clusters look like, and it needs no variance. Otherwise the CR2 t test and the
 * interval mean ± t·se, which agree with each other. Either way the interval is clipped only to
 * `range`, the bounds the mean can logically take, never to the data, so that clipping cannot
 * make it exclude 0 when the test does not.
 */
export function clusteredTest(
  data: ClusteredValues,
  level: number,
  range: readonly [number, number] = [-Infinity, Infinity],
): ClusteredTest {
  const robust = clusterRobustMean(data);
  if (exactDecides(data, robust)) return { ...robust, ...clusterSignFlip(data, 1 - level, range), method: "exact-sign-flip" };
  const half = tCritical(level, robust.df) * robust.se;
  return {
    ...robust,
    p: clusterRobustP(robust),
    lo: Math.max(range[0], robust.mean - half),
    hi: Math.min(range[1], robust.mean + half),
    method: "cr2-t",
    smallestP: Number.MIN_VALUE,
  };
}

/**
 * The p of clusteredTest alone, without inverting the exact test for an interval: the letters
 * test every pair of ablations in every column and need only p.
 */
export function clusteredP(data: ClusteredValues): number {
  const robust = clusterRobustMean(data);
  return exactDecides(data, robust) ? clusterSignFlip(data, 0).p : clusterRobustP(robust);
}

function exactDecides(data: ClusteredValues, robust: ClusterRobustMean): boolean {
  return data.nClusters <= EXACT_CLUSTER_MAX || robust.se === 0;
}

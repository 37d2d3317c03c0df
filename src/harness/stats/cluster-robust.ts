import tCdf from "@stdlib/stats-base-dists-t-cdf";
import tQuantile from "@stdlib/stats-base-dists-t-quantile";
import { type ClusteredValues, itemWeightedMean } from "./clusters.js";

/**
 * Inference for an item-weighted mean over clustered items, valid with few clusters.
 *
 * The variance is the cluster-robust "CR2" estimator of Bell and McCaffrey (2002), which for a
 * mean reduces to Σ_c (T_c − n_c·m)² / (1 − n_c/N) / N², with T_c the sum of cluster c's item
 * means, n_c its item count and N the item count. Its small-sample correction (the 1 − n_c/N)
 * and Student-t quantiles with the Bell–McCaffrey degrees of freedom keep a 95% interval near 95%
 * with 8 clusters of very unequal size, where a cluster bootstrap covers about 87% (checked by
 * the calibration tests; see test/harness/stats/calibration.test.ts).
 */

export interface ClusterRobustMean {
  mean: number;
  /** Standard error of the mean under clustering. */
  se: number;
  /** Degrees of freedom of the t reference distribution (Bell–McCaffrey), at least 1. */
  df: number;
}

/**
 * A standard error at most this fraction of the largest |item mean| is rounding, not variance:
 * the same values computed in another order (2/3 − 1/3 against 1 − 2/3) leave residuals of about
 * 1e-17 that a test of `se > 0` would take for near-certainty (t in the quadrillions, p = 5e-324).
 */
export const SE_TOLERANCE = 1e-9;

export function clusterRobustMean(data: ClusteredValues): ClusterRobustMean {
  const { totals, sizes, nItems: n, nClusters } = data;
  const mean = itemWeightedMean(data);
  if (nClusters < 2) return { mean, se: 0, df: 1 };
  let v = 0;
  for (let c = 0; c < nClusters; c++) {
    const residual = totals[c] - sizes[c] * mean;
    v += (residual * residual) / (1 - sizes[c] / n);
  }
  let scale = 0;
  for (const m of data.itemMeans) scale = Math.max(scale, Math.abs(m));
  const se = Math.sqrt(v) / n;
  return { mean, se: se <= SE_TOLERANCE * scale ? 0 : se, df: bellMcCaffreyDf(sizes, n) };
}

/**
 * Satterthwaite degrees of freedom of the CR2 variance of a mean under a working model of
 * independent, equal-variance items (Bell and McCaffrey 2002; Imbens and Kolesár 2016): with
 * g_c = (1_c − (n_c/N)·1) / √(1 − n_c/N), df = N² / Σ_c Σ_d (g_c·g_d)². Equal cluster sizes give
 * C − 1; unequal sizes give fewer, as a few large clusters carry most of the information.
 */
export function bellMcCaffreyDf(sizes: Float64Array, n: number): number {
  const clusters = sizes.length;
  let sumSquares = 0;
  for (let c = 0; c < clusters; c++) sumSquares += sizes[c] * sizes[c];
  // Off-diagonal terms: (g_c·g_d)² = (n_c n_d / N)² / ((1 − n_c/N)(1 − n_d/N)). Summed as
  // (Σ a_c)² − Σ a_c² with a_c = n_c² / (N² (1 − n_c/N)) times N², which is O(C).
  let sumA = 0;
  let sumA2 = 0;
  for (let c = 0; c < clusters; c++) {
    const a = (sizes[c] * sizes[c]) / (n * n * (1 - sizes[c] / n));
    sumA += a;
    sumA2 += a * a;
  }
  const offDiagonal = n * n * (sumA * sumA - sumA2);
  return Math.max(1, (n * n) / (sumSquares + offDiagonal));
}

/**
 * Two-sided p of "the mean is 0" by the t test of the cluster-robust mean, which agrees with the
 * interval mean ± tCritical·se (p < 1 − level exactly when it excludes 0). Needs se > 0; never 0.
 */
export function clusterRobustP(robust: ClusterRobustMean): number {
  if (!(robust.se > 0)) throw new RangeError("clusterRobustP: the t test needs a positive standard error");
  return Math.max(2 * (1 - tCdf(Math.abs(robust.mean) / robust.se, robust.df)), Number.MIN_VALUE);
}

/** The two-sided t critical value for `level` at `df` degrees of freedom. */
export function tCritical(level: number, df: number): number {
  return tQuantile((1 + level) / 2, df);
}

/**
 * The smallest true difference a two-sided test at `alpha` would detect with probability `power`,
 * given the standard error of the estimate and its degrees of freedom: (t_{1−α/2} + t_{power})·se.
 * It is what "we could not detect an effect" means in numbers.
 */
export function minimumDetectableEffect(se: number, df: number, options: { alpha?: number; power?: number } = {}): number {
  const { alpha = 0.05, power = 0.8 } = options;
  return (tQuantile(1 - alpha / 2, df) + tQuantile(power, df)) * se;
}

import { errorFunction, extent, probit, sampleStandardDeviation } from "simple-statistics";

/**
 * Above this many values, resampling is replaced by its normal limit. Resampling costs
 * resamples × n, which for a benchmark's thousands of (question, seed) pairs in every
 * (ablation, metric, category) cell takes minutes; at such n the bootstrap distribution of the
 * mean and the sign-flip distribution of the sum are normal to well within their own Monte Carlo
 * error (central limit theorem), so the normal forms give the same answers at no cost.
 */
export const LARGE_SAMPLE = 500;

/**
 * mean ± z·sd/√n: the interval the percentile bootstrap converges to for large n. Like every
 * bootstrap interval it stays within the values' range, which matters for rare 0/1 outcomes.
 */
export function normalMeanInterval(values: readonly number[], mean: number, level: number): { lo: number; hi: number } {
  const halfWidth = (probit((1 + level) / 2) * sampleStandardDeviation(values as number[])) / Math.sqrt(values.length);
  const [min, max] = extent(values as number[]);
  return { lo: Math.max(min, mean - halfWidth), hi: Math.min(max, mean + halfWidth) };
}

/**
 * Two-sided p of the sign-flip test from its normal limit: under the null the flipped sum has
 * mean 0 and variance Σd². Floored at 1/(resamples + 1), the smallest p the resampled test could
 * report, so a p-value is never 0.
 */
export function normalSignFlipP(sum: number, sumOfSquares: number, resamples: number): number {
  const z = Math.abs(sum) / Math.sqrt(sumOfSquares);
  const p = 1 - errorFunction(z / Math.SQRT2);
  return Math.max(p, 1 / (resamples + 1));
}

/**
 * Exact two-sided p of the sign-flip test when every non-zero difference has the same size (as
 * with 0/1 metrics such as recall@k): the flipped sum is then (2B − m)·|d| with B ~ Binomial(m, ½),
 * so p = P(|2B − m| ≥ k) where k = |#positive − #negative|. Summed in log space, so it is exact
 * for thousands of pairs; floored like the resampled test so that it is never 0.
 */
export function exactSignTestP(m: number, k: number, resamples: number): number {
  const logHalfPow = -m * Math.LN2;
  let logChoose = 0; // log C(m, 0)
  let p = 0;
  for (let b = 0; b <= m; b++) {
    if (b > 0) logChoose += Math.log(m - b + 1) - Math.log(b);
    if (Math.abs(2 * b - m) >= k) p += Math.exp(logChoose + logHalfPow);
  }
  return Math.max(Math.min(p, 1), 1 / (resamples + 1));
}

import { errorFunction, probit, sampleStandardDeviation } from "simple-statistics";

/**
 * Above this many values, resampling is replaced by its normal limit. Resampling costs
 * resamples × n, which for a benchmark's thousands of (question, seed) pairs in every
 * (ablation, metric, category) cell takes minutes; at such n the bootstrap distribution of the
 * mean and the sign-flip distribution of the sum are normal to well within their own Monte Carlo
 * error (central limit theorem), so the normal forms give the same answers at no cost.
 */
export const LARGE_SAMPLE = 2_000;

/** mean ± z·sd/√n: the interval the percentile bootstrap converges to for large n. */
export function normalMeanInterval(values: readonly number[], mean: number, level: number): { lo: number; hi: number } {
  const halfWidth = (probit((1 + level) / 2) * sampleStandardDeviation(values as number[])) / Math.sqrt(values.length);
  return { lo: mean - halfWidth, hi: mean + halfWidth };
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

import { mean as sampleMean, quantileSorted } from "simple-statistics";
import { LARGE_SAMPLE, normalMeanInterval } from "./large-sample.js";
import { toRng, type Seed } from "./rng.js";
import { assertFiniteValues, assertOpenUnit, assertPositiveInteger } from "./validate.js";

export interface BootstrapOptions {
  seed: Seed;
  /** Number of bootstrap resamples. */
  resamples?: number;
  /** Two-sided coverage of the interval, e.g. 0.95. */
  level?: number;
}

export interface MeanInterval {
  mean: number;
  lo: number;
  hi: number;
  /** Number of values the mean is over. */
  n: number;
}

/**
 * Percentile bootstrap interval for the mean: resample the values with replacement, take the
 * mean of each resample, and report the (1 − level)/2 and (1 + level)/2 quantiles of those means.
 * Above LARGE_SAMPLE values the normal interval it converges to is used instead.
 *
 * An empty input gives `{ mean: 0, lo: 0, hi: 0, n: 0 }` rather than NaN: the harness scores a
 * query with no results as 0 and never drops it, so "no values" only arises for an empty slice
 * of a report, and a NaN there would poison sums and charts. Callers that must tell "no data"
 * from "mean 0" read `n`.
 */
export function bootstrapMeanCI(values: readonly number[], options: BootstrapOptions): MeanInterval {
  const { resamples = 2000, level = 0.95 } = options;
  assertFiniteValues("bootstrapMeanCI", "values", values);
  assertPositiveInteger("bootstrapMeanCI", "resamples", resamples);
  assertOpenUnit("bootstrapMeanCI", "level", level);

  const n = values.length;
  if (n === 0) return { mean: 0, lo: 0, hi: 0, n: 0 };
  const mean = sampleMean(values);
  if (n > LARGE_SAMPLE) return { mean, ...normalMeanInterval(values, mean, level), n };

  const rng = toRng(options.seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[rng.nextInt(n)];
    means[r] = sum / n;
  }
  means.sort();
  const sorted = Array.from(means);
  const tail = (1 - level) / 2;
  return { mean, lo: quantileSorted(sorted, tail), hi: quantileSorted(sorted, 1 - tail), n };
}

import { mean as sampleMean } from "simple-statistics";
import { bootstrapMeanCI } from "./bootstrap.js";
import { toRng, type Seed } from "./rng.js";
import { pairedDifferences, signFlipTest } from "./sign-flip.js";

/** A per-pair difference smaller than this is a tie: scores are computed in floating point. */
export const TIE_TOLERANCE = 1e-12;

export interface CompareOptions {
  seed: Seed;
  /** Resamples for the bootstrap interval of the mean difference. */
  bootstrapResamples?: number;
  /** Resamples for the sign-flip test. */
  testResamples?: number;
  level?: number;
}

export interface Comparison {
  /** Number of pairs. */
  n: number;
  baselineMean: number;
  ablationMean: number;
  /** Mean of (ablation − baseline) over the pairs, with its bootstrap interval. */
  meanDiff: number;
  lo: number;
  hi: number;
  /** Two-sided sign-flip p-value, not yet corrected for multiple comparisons. */
  p: number;
  /** Pairs where the ablation scored higher than the baseline (by more than TIE_TOLERANCE). */
  wins: number;
  ties: number;
  losses: number;
}

/**
 * Compares an ablation with the baseline over the same (ask, seed) pairs, position by position.
 * The interval and the test draw from independent forks of `seed`, so changing the number of
 * bootstrap resamples does not change the p-value and vice versa. Correct the p-values of a
 * family of comparisons together with `holm`.
 */
export function compareToBaseline(
  baseline: readonly number[],
  ablation: readonly number[],
  options: CompareOptions,
): Comparison {
  const diffs = pairedDifferences(baseline, ablation);
  const rng = toRng(options.seed);
  const interval = bootstrapMeanCI(diffs, {
    seed: rng.fork("bootstrap"),
    resamples: options.bootstrapResamples,
    level: options.level,
  });
  const test = signFlipTest(diffs, { seed: rng.fork("sign-flip"), resamples: options.testResamples });

  let wins = 0;
  let losses = 0;
  for (const d of diffs) {
    if (d > TIE_TOLERANCE) wins++;
    else if (d < -TIE_TOLERANCE) losses++;
  }
  const n = diffs.length;
  return {
    n,
    baselineMean: n === 0 ? 0 : sampleMean(baseline),
    ablationMean: n === 0 ? 0 : sampleMean(ablation),
    meanDiff: interval.mean,
    lo: interval.lo,
    hi: interval.hi,
    p: test.p,
    wins,
    ties: n - wins - losses,
    losses,
  };
}

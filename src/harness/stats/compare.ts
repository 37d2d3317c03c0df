import { mean as sampleMean } from "simple-statistics";
import { bootstrapMeanCI, type ClusterDesign, designEffect } from "./bootstrap.js";
import { minimumDetectableEffect } from "./cluster-robust.js";
import { clusteredTest, type TestMethod } from "./clustered-test.js";
import { groupLabels, hasStructure, itemWeightedMean, reduceGrouped, type Structure } from "./clusters.js";
import { toRng, type Seed } from "./rng.js";
import { pairedDifferences, signFlipTest } from "./sign-flip.js";

/** A per-pair difference smaller than this is a tie: scores are computed in floating point. */
export const TIE_TOLERANCE = 1e-12;

export interface CompareOptions extends Structure {
  seed: Seed;
  /** Resamples for the bootstrap interval of the mean difference (independent pairs only). */
  bootstrapResamples?: number;
  /** Resamples for the sign-flip test, when it is not computed exactly. */
  testResamples?: number;
  level?: number;
  /**
   * The bounds every value lies in, e.g. [0, 1] for recall; differences then lie in [−1, 1], and
   * a clustered interval is clipped to that and nothing narrower. Without them, the range the
   * observed values span stands in, so that an interval the test cannot narrow (too few
   * clusters to reject anything) is wide but finite.
   */
  bounds?: readonly [number, number];
  /** The two-sided level the minimum detectable effect is computed at (a family's corrected α); 0.05 by default. */
  mdeAlpha?: number;
}

export interface Comparison {
  /** Number of pairs (values on each side). */
  n: number;
  baselineMean: number;
  ablationMean: number;
  /** Mean of (ablation − baseline), with its interval. */
  meanDiff: number;
  lo: number;
  hi: number;
  /** Two-sided sign-flip p-value, not yet corrected for multiple comparisons. */
  p: number;
  /** Units (items, or pairs when there are no items) where the ablation scored higher by more than TIE_TOLERANCE. */
  wins: number;
  ties: number;
  losses: number;
}

/** What a comparison over clustered items adds (see ClusterDesign). */
export interface ClusteredComparison extends Comparison, ClusterDesign {
  /**
   * Minimum detectable effect: the true |difference| this design detects with 80% power at
   * `mdeAlpha`. Absent when se is 0 (there is no variance to scale it by) and when the test
   * cannot reach `mdeAlpha` at all (its smallest p, `smallestP`, is not below it).
   */
  mde?: number;
  /** The test that gave `p` and the interval (see clusteredTest). */
  method: TestMethod;
  /** The smallest p `method` can give on these clusters: 2 / 2^C for the exact sign-flip test. */
  smallestP: number;
  /**
   * Each cluster's total of item mean differences, the figures the exact test flips, with its
   * label: comparisons over the same clusters are adjusted jointly from them (see westfallYoung).
   */
  clusterTotals: { labels: (string | number)[]; totals: number[] };
}

/**
 * Compares an ablation with the baseline over the same (ask, seed) pairs, position by position.
 *
 * Without `items` or `clusters` the pairs are independent: a bootstrap interval of the mean
 * difference and a sign-flip test over the pairs, drawn from independent forks of `seed` (so
 * changing the number of bootstrap resamples does not change the p-value and vice versa).
 *
 * With them, each item's differences are averaged first (its seeds measure one ask), and the
 * clusters are the units: with 12 clusters or fewer, or no variance, the exact cluster sign-flip
 * test and its inverted interval; otherwise the CR2 t test with its interval (see clusteredTest).
 * Either way p < 1 − level exactly when the interval excludes 0. Wins, ties and losses then
 * count items. The result adds the counts of items and clusters, the design effect, the method
 * and the minimum detectable effect.
 *
 * Correct the p-values of a family of comparisons together with `holm`, or, when the exact test
 * decided each over the same clusters, with `westfallYoung` over their `clusterTotals`.
 */
export function compareToBaseline(
  baseline: readonly number[],
  ablation: readonly number[],
  options: CompareOptions,
): Comparison | ClusteredComparison {
  const diffs = pairedDifferences(baseline, ablation);
  const n = diffs.length;
  const rng = toRng(options.seed);
  const means = {
    baselineMean: n === 0 ? 0 : sampleMean(baseline as number[]),
    ablationMean: n === 0 ? 0 : sampleMean(ablation as number[]),
  };

  if (hasStructure(options)) {
    const grouping = groupLabels("compareToBaseline", n, options);
    const reduce = (values: readonly number[]) => reduceGrouped(values, grouping);
    const data = reduce(diffs);
    const [low, high] = options.bounds ?? observedRange(baseline, ablation);
    const test = clusteredTest(data, options.level ?? 0.95, [low - high, high - low]);
    const mdeAlpha = options.mdeAlpha ?? 0.05;
    const detectable = test.se > 0 && test.smallestP < mdeAlpha;
    return {
      n,
      baselineMean: itemWeightedMean(reduce(baseline)),
      ablationMean: itemWeightedMean(reduce(ablation)),
      meanDiff: test.mean,
      lo: test.lo,
      hi: test.hi,
      p: test.p,
      ...winsTiesLosses(data.itemMeans),
      nItems: data.nItems,
      nClusters: data.nClusters,
      clusteredBy: data.clusteredBy,
      designEffect: designEffect(test.se, diffs),
      se: test.se,
      df: test.df,
      ...(detectable ? { mde: minimumDetectableEffect(test.se, test.df, { alpha: mdeAlpha }) } : {}),
      method: test.method,
      smallestP: test.smallestP,
      clusterTotals: { labels: data.clusterLabels, totals: Array.from(data.totals) },
    };
  }

  const interval = bootstrapMeanCI(diffs, {
    seed: rng.fork("bootstrap"),
    resamples: options.bootstrapResamples,
    level: options.level,
  });
  const test = signFlipTest(diffs, { seed: rng.fork("sign-flip"), resamples: options.testResamples });
  return {
    n,
    ...means,
    meanDiff: interval.mean,
    lo: interval.lo,
    hi: interval.hi,
    p: test.p,
    ...winsTiesLosses(diffs),
  };
}

function observedRange(a: readonly number[], b: readonly number[]): [number, number] {
  let low = 0;
  let high = 0;
  for (const v of [...a, ...b]) {
    low = Math.min(low, v);
    high = Math.max(high, v);
  }
  return [low, high];
}

function winsTiesLosses(diffs: readonly number[] | Float64Array): { wins: number; ties: number; losses: number } {
  let wins = 0;
  let losses = 0;
  for (const d of diffs) {
    if (d > TIE_TOLERANCE) wins++;
    else if (d < -TIE_TOLERANCE) losses++;
  }
  return { wins, ties: diffs.length - wins - losses, losses };
}

/**
 * Statistics for comparing ablations. Pure functions: the same inputs and seed give the same
 * output, byte for byte. Every random draw comes from `createRng(seed)` or a fork of it, keyed by
 * the data drawn from (`forkByData`), so identical data give identical figures.
 *
 * The question is the unit and clusters are respected. A benchmark asks each question under
 * several seeds (repeated measurements of one question), and questions of one conversation
 * share its memories. Pass `items` (the question of each value) and `clusters` (its
 * conversation or scenario): values of one item are averaged first, and the clusters are the
 * independent units. Without them the values are taken as independent, as before.
 *
 * What each piece answers:
 *
 * - `bootstrapMeanCI` — "What is this ablation's mean score, and how sure are we?" Independent
 *   values: a percentile bootstrap interval. Clustered: a cluster-robust (CR2) t interval with
 *   Bell–McCaffrey degrees of freedom, valid with 8–10 clusters, plus the counts of items and
 *   clusters and the design effect. Values `bounded` in [0, 1] get a clustered Wilson interval
 *   that keeps its coverage near 0 and 1. Empty input gives mean 0 with n = 0 rather than NaN.
 * - `pairedDifferences` + `signFlipTest` — "Could the difference between two systems on the same
 *   asks be chance?" For independent pairs, a two-sided paired randomisation test: exact for up
 *   to 16 non-zero differences (all assignments) and for 0/1 differences (binomial), resampled
 *   or normal otherwise. Clustered comparisons (`clusteredTest`) use the exact cluster sign-flip
 *   test, inverted for their interval, with 12 clusters or fewer or no variance, and the t test of
 *   their cluster-robust interval otherwise; either way interval and test agree. A standard error
 *   within rounding of 0 counts as 0 (`SE_TOLERANCE`). A p-value is never 0.
 * - `holm` — "Which of many comparisons survive being looked at together?" Holm–Bonferroni
 *   adjusted p-values; without it, ten ablations at α = 0.05 would show a spurious "win" in
 *   about 40% of experiments.
 * - `westfallYoung` — "And when those comparisons share their clusters?" Holm assumes nothing
 *   about their dependence, so with 10 clusters (smallest exact p 2/1024) a family of 36 can
 *   never pass its first step, α/36. The Westfall–Young step-down maxT adjustment flips the
 *   clusters' signs jointly across the family's comparisons, so it pays only for the family's
 *   effective number of independent comparisons: a difference in every cluster can keep p as low as 2/2^C.
 * - `compareToBaseline` — "Did this ablation beat the baseline, by how much, and on how many
 *   asks?" The mean difference with its interval, the sign-flip p (uncorrected: pass the
 *   family's p-values through `holm`), win/tie/loss counts and, clustered, the method that
 *   decided and the minimum detectable effect at a given level (pass the family's corrected α):
 *   what "could not detect" means in numbers, absent when nothing could be detected.
 * - `letterSystems` — "Which systems are better than which?" ranx-style lettering: every pair of
 *   systems is tested, all those p-values are Holm-corrected together, and each system lists the
 *   letters of the systems it beats at α = 0.05.
 *
 * Checked by simulation: under iid and clustered nulls (8, 10 and 40 clusters, continuous and 0/1
 * outcomes) a test at α = 0.05 is significant about 5% of the time and 95% intervals cover the
 * truth about 95% of the time, and a true difference equal to the reported MDE is detected about
 * 80% of the time, each within a band derived from the number of simulations (`npm run
 * calibrate` for the full run); see test/harness/stats/calibration.test.ts. There too, a family of
 * 36 comparisons sharing 8 or 10 unequal clusters, adjusted by `westfallYoung`, keeps its
 * family-wise error rate near 5% under the global null and finds an effect present in every
 * cluster, which Holm over the same family cannot.
 */
export { createRng, forkByData, sampleNormal, toRng, type Rng, type Seed } from "./rng.js";
export { type ClusteredValues, type Labels, reduceToClusters, type Structure } from "./clusters.js";
export { bellMcCaffreyDf, clusterRobustMean, minimumDetectableEffect, SE_TOLERANCE, tCritical } from "./cluster-robust.js";
export { type ClusterSignFlip, clusterSignFlip, EXACT_CLUSTER_MAX } from "./cluster-sign-flip.js";
export { clusteredP, type ClusteredTest, clusteredTest, type TestMethod } from "./clustered-test.js";
export { clusteredWilsonInterval, type WilsonInterval } from "./wilson.js";
export {
  bootstrapMeanCI,
  type BootstrapOptions,
  type ClusteredInterval,
  clusteredMeanInterval,
  type MeanInterval,
} from "./bootstrap.js";
export {
  EXACT_SIGN_FLIP_MAX,
  pairedDifferences,
  signFlipTest,
  type SignFlipOptions,
  type SignFlipResult,
} from "./sign-flip.js";
export { holm } from "./holm.js";
export { westfallYoung } from "./westfall-young.js";
export { exactSignTestP, LARGE_SAMPLE, normalMeanInterval, normalSignFlipP } from "./large-sample.js";
export {
  type ClusteredComparison,
  compareToBaseline,
  TIE_TOLERANCE,
  type CompareOptions,
  type Comparison,
} from "./compare.js";
export {
  letterFor,
  letterSystems,
  type LetteredSystem,
  type LetteringOptions,
  type LetteringSystem,
} from "./lettering.js";

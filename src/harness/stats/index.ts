/**
 * Statistics for comparing ablations. Pure functions: the same inputs and seed give the same
 * output, byte for byte. Every random draw comes from `createRng(seed)` or a fork of it.
 *
 * What each piece answers:
 *
 * - `bootstrapMeanCI` — "What is this ablation's mean score, and how sure are we?" A percentile
 *   bootstrap interval (default 95%) for the mean over (ask, seed) pairs. Empty input gives
 *   mean 0 with n = 0 rather than NaN.
 * - `pairedDifferences` + `signFlipTest` — "Could the difference between two systems on the same
 *   asks be chance?" A two-sided paired randomisation test on the mean difference. It assumes
 *   only that, with no real effect, each pair's difference is as likely to flip sign; it does not
 *   assume normal scores. p is (b + 1)/(resamples + 1), so it is never 0.
 * - `holm` — "Which of many comparisons survive being looked at together?" Holm–Bonferroni
 *   adjusted p-values; without it, ten ablations at α = 0.05 would show a spurious "win" in
 *   about 40% of experiments.
 * - `compareToBaseline` — "Did this ablation beat the baseline, by how much, and on how many
 *   asks?" The mean difference with its bootstrap interval, the sign-flip p (uncorrected: pass
 *   the family's p-values through `holm`), and win/tie/loss counts per pair.
 * - `letterSystems` — "Which systems are better than which?" ranx-style lettering: every pair of
 *   systems is tested, all those p-values are Holm-corrected together, and each system lists the
 *   letters of the systems it beats at α = 0.05.
 *
 * Checked by the tests: an A-vs-A comparison is called significant about 5% of the time, a
 * half-standard-deviation shift over 40 pairs is found, and the 95% interval covers the true
 * mean about 95% of the time.
 */
export { createRng, sampleNormal, toRng, type Rng, type Seed } from "./rng.js";
export { bootstrapMeanCI, type BootstrapOptions, type MeanInterval } from "./bootstrap.js";
export {
  pairedDifferences,
  signFlipTest,
  type SignFlipOptions,
  type SignFlipResult,
} from "./sign-flip.js";
export { holm } from "./holm.js";
export { exactSignTestP, LARGE_SAMPLE, normalMeanInterval, normalSignFlipP } from "./large-sample.js";
export { compareToBaseline, TIE_TOLERANCE, type CompareOptions, type Comparison } from "./compare.js";
export {
  letterFor,
  letterSystems,
  type LetteredSystem,
  type LetteringOptions,
  type LetteringSystem,
} from "./lettering.js";

import { exactSignTestP, LARGE_SAMPLE, normalSignFlipP } from "./large-sample.js";
import { forkByData, toRng, type Seed } from "./rng.js";
import { assertFiniteValues, assertPositiveInteger } from "./validate.js";

const SIGN_BITS = 30;
/** Up to this many non-zero differences, every one of the 2^n sign assignments is enumerated. */
export const EXACT_SIGN_FLIP_MAX = 16;

/** Per-pair differences `b[i] − a[i]`; the two arrays must describe the same pairs, in order. */
export function pairedDifferences(a: readonly number[], b: readonly number[]): number[] {
  if (a.length !== b.length) {
    throw new RangeError(
      `pairedDifferences: the samples must be paired, but have ${a.length} and ${b.length} values`,
    );
  }
  assertFiniteValues("pairedDifferences", "a", a);
  assertFiniteValues("pairedDifferences", "b", b);
  const diffs: number[] = [];
  for (let i = 0; i < a.length; i++) diffs.push(b[i] - a[i]);
  return diffs;
}

export interface SignFlipOptions {
  seed: Seed;
  /** Number of random sign assignments. */
  resamples?: number;
}

export interface SignFlipResult {
  meanDiff: number;
  /** Two-sided p-value, (b + 1) / (resamples + 1): never 0. */
  p: number;
  n: number;
}

/**
 * Two-sided paired randomisation test of "the mean difference is 0". Under that null each
 * difference is as likely to have come out with the opposite sign, so we flip signs at random
 * and count how often the flipped mean is at least as far from 0 as the observed one.
 *
 * Up to EXACT_SIGN_FLIP_MAX non-zero differences every assignment is enumerated and p is exact
 * (as with a few clusters, where it matters most). When all non-zero differences have one size
 * (0/1 metrics) the test's exact binomial form is used; above LARGE_SAMPLE non-zero differences,
 * its normal limit. Otherwise signs are drawn at random: the p-value counts the observed
 * assignment as one of the draws, (b + 1) / (resamples + 1), which keeps the test valid (never
 * anti-conservative) and never reports p = 0. The draws come from a stream keyed by the
 * differences themselves, so the same differences give the same p under the same seed, whoever
 * asks. No differences, or all-zero differences, give p = 1: there is no evidence of any effect.
 */
export function signFlipTest(diffs: readonly number[], options: SignFlipOptions): SignFlipResult {
  const { resamples = 10_000 } = options;
  assertFiniteValues("signFlipTest", "diffs", diffs);
  assertPositiveInteger("signFlipTest", "resamples", resamples);

  const n = diffs.length;
  if (n === 0) return { meanDiff: 0, p: 1, n: 0 };
  let sum = 0;
  let sumAbs = 0;
  for (const d of diffs) {
    sum += d;
    sumAbs += Math.abs(d);
  }
  const meanDiff = sum / n;
  if (sumAbs === 0) return { meanDiff, p: 1, n };

  // Flipped sums add the same magnitudes in other sign patterns, so a flip that reproduces the
  // observed |mean| exactly can differ from it by rounding. Compare sums (not means) with a
  // tolerance relative to their scale, so such ties count as "at least as extreme".
  const observed = Math.abs(sum);
  const tolerance = 1e-9 * sumAbs;
  // Flipping a zero difference changes nothing, so only the non-zero ones are resampled: the
  // same null distribution, far less work when most pairs tie (as they do between ablations).
  const moving = Float64Array.from(diffs.filter((d) => d !== 0));
  const size = Math.abs(moving[0]);
  if (moving.every((d) => Math.abs(Math.abs(d) - size) <= 1e-12 * size)) {
    const k = Math.round(Math.abs(sum) / size);
    return { meanDiff, p: exactSignTestP(moving.length, k, resamples), n };
  }
  if (moving.length <= EXACT_SIGN_FLIP_MAX) {
    return { meanDiff, p: enumeratedP(moving, observed - tolerance), n };
  }
  if (moving.length > LARGE_SAMPLE) {
    let sumOfSquares = 0;
    for (const d of moving) sumOfSquares += d * d;
    return { meanDiff, p: normalSignFlipP(sum, sumOfSquares, resamples), n };
  }
  const rng = forkByData(toRng(options.seed), moving);
  let atLeastAsExtreme = 0;
  for (let r = 0; r < resamples; r++) {
    let flipped = 0;
    // One 30-bit draw gives the signs of 30 differences.
    let bits = 0;
    for (let i = 0; i < moving.length; i++) {
      if (i % SIGN_BITS === 0) bits = rng.nextInt(1 << SIGN_BITS);
      flipped += bits & 1 ? -moving[i] : moving[i];
      bits >>>= 1;
    }
    if (Math.abs(flipped) >= observed - tolerance) atLeastAsExtreme++;
  }
  return { meanDiff, p: (atLeastAsExtreme + 1) / (resamples + 1), n };
}

/**
 * The exact p of the sign-flip test: the share of all 2^n sign assignments whose |sum| reaches
 * `bar`. Assignments are visited in Gray-code order, so each one costs one addition. The signs of
 * `signed` are flipped in place: the caller passes a copy it no longer needs.
 */
function enumeratedP(signed: Float64Array, bar: number): number {
  let sum = 0;
  for (const d of signed) sum += d;
  // The first assignment is the observed one, which always reaches its own bar.
  let atLeastAsExtreme = 1;
  const total = 2 ** signed.length;
  for (let k = 1; k !== total; k++) {
    // Gray code: assignment k differs from k − 1 in the sign of its lowest set bit.
    const bit = 31 - Math.clz32(k & -k);
    sum -= 2 * signed[bit];
    signed[bit] = -signed[bit];
    if (Math.abs(sum) >= bar) atLeastAsExtreme++;
  }
  return atLeastAsExtreme / total;
}

import type { ClusteredValues } from "./clusters.js";

/** Up to this many clusters, every one of the 2^C sign assignments of the cluster totals is enumerated. */
export const EXACT_CLUSTER_MAX = 12;

/** Two flipped statistics this close (relative to the data's scale) are a tie, counted as "at least as extreme". */
const TIE_TOLERANCE = 1e-9;

export interface ClusterSignFlip {
  /** Exact two-sided p of "the mean is 0"; never 0, at least 2 / 2^C. */
  p: number;
  /** The shifts δ that the test of "the mean is δ" does not reject at α: the test inverted. */
  lo: number;
  hi: number;
  /** The smallest p this test can give with these clusters, 2 / 2^C: below it nothing is detectable. */
  smallestP: number;
}

/**
 * The exact cluster sign-flip test of an item-weighted mean, and its interval.
 *
 * Under "the mean is δ" each cluster's total of shifted item means, T_c − n_c·δ, is as likely to
 * have come out with the opposite sign; the test counts the sign assignments s whose flipped sum
 * is at least as far from 0 as the observed one, so p(δ) is exact with no variance to estimate.
 * It needs no standard error, so it decides when there are few clusters (where the t
 * approximation of the variance is weakest) and when every cluster agrees (where se is 0).
 *
 * Inverting it gives the interval. For one assignment the condition
 * |Σ s_c(T_c − n_c δ)| ≥ |Σ (T_c − n_c δ)| holds exactly for δ between
 * (T − S_s)/(N − N_s) and (T + S_s)/(N + N_s), with S_s = Σ s_c T_c and N_s = Σ s_c n_c; the two
 * assignments all + and all − hold everywhere. Every such interval contains the mean T/N, so p(δ)
 * falls monotonically on each side of it and {δ : p(δ) ≥ α} is one interval, bounded by the K-th
 * smallest lower and the K-th largest upper end, where K is the count of covering assignments that
 * α needs. p(0) is counted from the same ends, so "p < α" and "the interval excludes 0" are one
 * statement: the verdict and its interval cannot disagree.
 *
 * When α ≤ 2 / 2^C no data can be rejected (too few clusters): the interval is `range`, the
 * bounds the mean can take, or unbounded without them. With more than EXACT_CLUSTER_MAX clusters
 * the caller must have found that the clusters all agree (T_c = n_c·mean, a zero cluster-robust
 * se): that case has a closed form, p = 2 / 2^C and the interval the mean itself. α = 0 accepts
 * every δ, so it asks for p alone and skips the sorting the interval costs.
 */
export function clusterSignFlip(
  data: ClusteredValues,
  alpha: number,
  range: readonly [number, number] = [-Infinity, Infinity],
): ClusterSignFlip {
  const { totals, sizes, nClusters: clusters } = data;
  let t = 0;
  let n = 0;
  let scale = 0;
  for (let c = 0; c < clusters; c++) {
    t += totals[c];
    n += sizes[c];
    scale += Math.abs(totals[c]);
  }
  const mean = n === 0 ? 0 : t / n;
  const smallestP = Math.max(2 / 2 ** clusters, Number.MIN_VALUE);
  if (clusters < 2) return { p: 1, lo: range[0], hi: range[1], smallestP: 1 };
  const epsilon = (TIE_TOLERANCE * scale) / n;
  const total = 2 ** clusters;
  const whole = { lo: range[0], hi: range[1] };

  if (clusters > EXACT_CLUSTER_MAX) {
    // The caller's clusters all agree (se 0): every non-trivial assignment stays strictly inside
    // the observed |sum| except at δ = mean, so p(δ) is 2 / 2^C away from the mean. No δ is
    // rejected when even that p reaches α. (The count of covering assignments below is not
    // needed here, and past 2^53 assignments it cannot be stepped one by one: k − 1 is k.)
    const p = Math.abs(mean) <= epsilon ? 1 : smallestP;
    const at = { lo: Math.max(range[0], mean - epsilon), hi: Math.min(range[1], mean + epsilon) };
    return { p, ...(2 / total >= alpha ? whole : at), smallestP };
  }
  // The smallest count of covering assignments with p(δ) = (2 + count) / 2^C ≥ α. Scaling by a
  // power of two is exact, and so is α·2^C − 2 from 2 up (below, the clamp to 0 decides): this k
  // is the smallest for which the division that gives p reaches α, so p < α and the interval agree.
  const k = Math.max(0, Math.ceil(alpha * total - 2));
  const { lower, upper } = assignmentEnds(totals, sizes, t, n);
  let covering = 0;
  for (let i = 0; i < lower.length; i++) {
    if (lower[i] - epsilon <= 0 && 0 <= upper[i] + epsilon) covering++;
  }
  const p = Math.max(Math.min(1, (2 + covering) / total), smallestP);
  if (k === 0) return { p, ...whole, smallestP };
  lower.sort();
  upper.sort();
  return {
    p,
    lo: Math.max(range[0], lower[k - 1] - epsilon),
    hi: Math.min(range[1], upper[upper.length - k] + epsilon),
    smallestP,
  };
}

/**
 * The interval of δ where each non-trivial sign assignment reaches the observed statistic,
 * visiting assignments in Gray-code order so each costs one update of S_s and N_s.
 */
function assignmentEnds(totals: Float64Array, sizes: Float64Array, t: number, n: number): { lower: Float64Array; upper: Float64Array } {
  const clusters = totals.length;
  const total = 2 ** clusters;
  const lower = new Float64Array(total - 2);
  const upper = new Float64Array(total - 2);
  const signs = new Int8Array(clusters).fill(1);
  let s = t;
  let ns = n;
  let j = 0;
  for (let k = 1; k !== total; k++) {
    const bit = 31 - Math.clz32(k & -k);
    signs[bit] = -signs[bit];
    s += 2 * signs[bit] * totals[bit];
    ns += 2 * signs[bit] * sizes[bit];
    // Sizes are item counts, so N_s is an exact integer and ±N marks the trivial assignments.
    if (Math.abs(ns) === n) continue;
    const a = (t - s) / (n - ns);
    const b = (t + s) / (n + ns);
    lower[j] = Math.min(a, b);
    upper[j] = Math.max(a, b);
    j++;
  }
  return { lower, upper };
}

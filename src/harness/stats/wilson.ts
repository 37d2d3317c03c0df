import { tCritical, clusterRobustMean } from "./cluster-robust.js";
import type { ClusteredValues } from "./clusters.js";

export interface WilsonInterval {
  mean: number;
  lo: number;
  hi: number;
  se: number;
  df: number;
}

/**
 * A Wilson score interval for an item-weighted mean of values in [0, 1], made cluster-robust in
 * the way of Korn and Graubard (1998): the sample size is the effective one, p̂(1 − p̂)/se² with
 * the CR2 se, never more than the number of values (clustering does not add information; an
 * ask's seeds may, when they differ), and the normal quantile is the Student-t one at the
 * Bell–McCaffrey df.
 *
 * A t interval mean ± t·se is symmetric and has se 0 when every item scores 1, so near 0 or 1
 * with few, unequal clusters it covers the truth only 81–89% of the time and can be the single
 * point "1.000 [1.000, 1.000]". The score interval leans towards the middle and keeps its width
 * at the bounds: at p̂ = 0 or 1, or with no variance between clusters, there is no variance to
 * measure and the effective size is the item count, each ask counted once as its seeds are
 * repeats of it (checked by the calibration tests).
 */
export function clusteredWilsonInterval(data: ClusteredValues, level: number): WilsonInterval {
  const { mean, se, df } = clusterRobustMean(data);
  const binomial = mean * (1 - mean);
  const n = se > 0 && binomial > 0 ? Math.min(data.nValues, binomial / (se * se)) : data.nItems;
  const t = tCritical(level, df);
  const spread = (t * t) / n;
  const centre = (mean + spread / 2) / (1 + spread);
  const half = (t / (1 + spread)) * Math.sqrt(binomial / n + spread / (4 * n));
  return { mean, lo: Math.max(0, centre - half), hi: Math.min(1, centre + half), se, df };
}

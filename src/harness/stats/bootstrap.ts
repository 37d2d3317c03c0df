import { extent, mean as sampleMean, quantileSorted, sampleVariance } from "simple-statistics";
import { clusterRobustMean, tCritical } from "./cluster-robust.js";
import { type ClusteredValues, hasStructure, reduceToClusters, type Structure } from "./clusters.js";
import { LARGE_SAMPLE, normalMeanInterval } from "./large-sample.js";
import { forkByData, toRng, type Seed } from "./rng.js";
import { assertFiniteValues, assertOpenUnit, assertPositiveInteger, assertUnitValues } from "./validate.js";
import { clusteredWilsonInterval } from "./wilson.js";

export interface BootstrapOptions extends Structure {
  seed: Seed;
  /** Number of bootstrap resamples (independent values only). */
  resamples?: number;
  /** Two-sided coverage of the interval, e.g. 0.95. */
  level?: number;
  /**
   * The values lie in [0, 1] (recall, coverage, a share of keys): the interval is then the
   * clustered Wilson score interval (see wilson.ts), whatever the structure, and stays inside [0, 1].
   */
  bounded?: boolean;
}

export interface MeanInterval {
  mean: number;
  lo: number;
  hi: number;
  /** Number of values the mean is over. */
  n: number;
}

/** The design an inference over clustered items was computed on, and how much clustering cost. */
export interface ClusterDesign {
  /** Distinct items (values of one item are averaged first). */
  nItems: number;
  /** Independent units of the inference: clusters, or items when there was one cluster or none declared. */
  nClusters: number;
  clusteredBy: "cluster" | "item";
  /**
   * Variance of the mean under clustering ÷ its variance if all n values were independent: how
   * much a naive analysis of the (ask, seed) values would overstate the evidence. 1 when the
   * values do not vary.
   */
  designEffect: number;
  /** Standard error of the mean under clustering, and the degrees of freedom of its t interval. */
  se: number;
  df: number;
}

/** What a clustered interval adds: the units it was computed on and how much clustering cost. */
export interface ClusteredInterval extends MeanInterval, ClusterDesign {}

/**
 * An interval for the mean.
 *
 * Without `items` or `clusters`, the values are taken as independent: a percentile bootstrap
 * (resample the values, report the (1 − level)/2 and (1 + level)/2 quantiles of the resampled
 * means), replaced above LARGE_SAMPLE values by the normal interval it converges to.
 *
 * With them, the values of one item are averaged first and the mean is over items; its interval
 * treats the clusters as the independent units: a cluster-robust t interval (see
 * cluster-robust.ts), which stays valid with 8–10 clusters where a cluster bootstrap does not.
 *
 * Both kinds stay within the range of the values they are over (values, or item means). Values
 * declared `bounded` in [0, 1] get the clustered Wilson interval instead, independent values
 * taken as clusters of one: it keeps its coverage near 0 and 1, where the others shrink to a
 * point. An empty input gives `{ mean: 0, lo: 0, hi: 0, n: 0 }` rather
 * than NaN: the harness scores a query with no results as 0 and never drops it, so "no values"
 * only arises for an empty slice of a report. Callers that must tell "no data" from "mean 0" read `n`.
 */
export function bootstrapMeanCI(values: readonly number[], options: BootstrapOptions): MeanInterval | ClusteredInterval {
  const { resamples = 2000, level = 0.95 } = options;
  assertFiniteValues("bootstrapMeanCI", "values", values);
  assertPositiveInteger("bootstrapMeanCI", "resamples", resamples);
  assertOpenUnit("bootstrapMeanCI", "level", level);
  if (options.bounded) {
    assertUnitValues("bootstrapMeanCI", "values", values);
    return clusteredMeanInterval(reduceToClusters("bootstrapMeanCI", values, options), values, level, true);
  }
  if (hasStructure(options)) return clusteredMeanInterval(reduceToClusters("bootstrapMeanCI", values, options), values, level);

  const n = values.length;
  if (n === 0) return { mean: 0, lo: 0, hi: 0, n: 0 };
  const mean = sampleMean(values);
  if (n > LARGE_SAMPLE) return { mean, ...normalMeanInterval(values, mean, level), n };

  const rng = forkByData(toRng(options.seed), values);
  const means = Float64Array.from({ length: resamples }, () => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[rng.nextInt(n)];
    return sum / n;
  });
  means.sort();
  const sorted = Array.from(means);
  const tail = (1 - level) / 2;
  return { mean, lo: quantileSorted(sorted, tail), hi: quantileSorted(sorted, 1 - tail), n };
}

/**
 * The cluster-robust interval of the item-weighted mean of `data`, built from `values`: the CR2
 * t interval, or for `bounded` values in [0, 1] the clustered Wilson interval.
 */
export function clusteredMeanInterval(
  data: ClusteredValues,
  values: readonly number[],
  level: number,
  bounded = false,
): ClusteredInterval {
  const units = { nItems: data.nItems, nClusters: data.nClusters, clusteredBy: data.clusteredBy };
  if (data.nItems === 0) return { mean: 0, lo: 0, hi: 0, n: 0, ...units, designEffect: 1, se: 0, df: 1 };
  if (bounded) {
    const { se, ...interval } = clusteredWilsonInterval(data, level);
    return { ...interval, n: data.nValues, ...units, designEffect: designEffect(se, values), se };
  }
  const { mean, se, df } = clusterRobustMean(data);
  // One cluster has se 0 (clusterRobustMean), so its interval is the point.
  const half = tCritical(level, df) * se;
  const [min, max] = extent(data.itemMeans as unknown as number[]);
  return {
    mean,
    lo: Math.max(min, mean - half),
    hi: Math.min(max, mean + half),
    n: data.nValues,
    ...units,
    designEffect: designEffect(se, values),
    se,
    df,
  };
}

/** Variance of the mean under clustering ÷ its variance if the values were independent; 1 when they do not vary. */
export function designEffect(se: number, values: readonly number[]): number {
  const independent = values.length < 2 ? 0 : sampleVariance(values as number[]) / values.length;
  return independent === 0 ? 1 : (se * se) / independent;
}

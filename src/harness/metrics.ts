import type { AskResult } from "./results/types.js";

/**
 * Rank metrics read the gold ranks of one ask. A gold memory that was never ranked (null) counts
 * as missed, and an ask whose gold list is empty scores 0: no ask is ever dropped.
 */

export function recallAny(ranks: (number | null)[], k: number): number {
  return ranks.some((r) => r !== null && r <= k) ? 1 : 0;
}

export function recallAll(ranks: (number | null)[], k: number): number {
  if (ranks.length === 0) return 0;
  return ranks.every((r) => r !== null && r <= k) ? 1 : 0;
}

export function reciprocalRank(ranks: (number | null)[]): number {
  // With no gold memory found the minimum is Infinity, and 1/Infinity is the 0 it should be.
  return 1 / Math.min(Infinity, ...ranks.filter((r): r is number => r !== null));
}

/**
 * Binary-gain nDCG@k: each gold memory in the top k adds 1/log2(position + 1). Per-kind ranks are
 * counted within each section, so two gold memories of different kinds can both rank 1; they are
 * read as consecutive positions of one list (the second at 2), which keeps nDCG within [0, 1].
 */
export function ndcg(ranks: (number | null)[], k: number): number {
  if (ranks.length === 0) return 0;
  const found = ranks.filter((r): r is number => r !== null).sort((a, b) => a - b);
  let dcg = 0;
  let position = 0;
  for (const r of found) {
    position = Math.max(r, position + 1);
    if (position <= k) dcg += 1 / Math.log2(position + 1);
  }
  let ideal = 0;
  for (let i = 1; i <= Math.min(ranks.length, k); i++) ideal += 1 / Math.log2(i + 1);
  return dcg / ideal;
}

export type MetricName = string;

/** The metric names an experiment reports for its k values, in report order. */
export function metricNames(ks: number[]): MetricName[] {
  return [
    ...ks.map((k) => `recall_any@${k}`),
    ...ks.map((k) => `recall_all@${k}`),
    "mrr",
    ...ks.map((k) => `ndcg@${k}`),
    "coverage",
    "leakage",
    "tokens",
  ];
}

/** One metric's value for one ask; null when the metric does not apply (coverage with nothing required). */
export function metricValue(result: AskResult, metric: MetricName): number | null {
  return metricReader(metric)(result);
}

/** Reads one metric from asks: the metric's name is parsed once, for loops over many asks. */
export function metricReader(metric: MetricName): (result: AskResult) => number | null {
  const [name, kText] = metric.split("@");
  const k = Number(kText);
  switch (name) {
    case "recall_any":
      return (result) => recallAny(result.ranks, k);
    case "recall_all":
      return (result) => recallAll(result.ranks, k);
    case "mrr":
      return (result) => reciprocalRank(result.ranks);
    case "ndcg":
      return (result) => ndcg(result.ranks, k);
    case "coverage":
      return (result) => result.coverage;
    case "leakage":
      return (result) => (result.leaked.length > 0 ? 1 : 0);
    case "tokens":
      return (result) => result.tokens;
    default:
      throw new Error(`unknown metric "${metric}"`);
  }
}

/**
 * Whether a metric reads ranks. Ranks count within the ordering that produced the block (a
 * section per kind, or one pooled list), so they compare like for like only between policies
 * with the same layout.
 */
export function isRankMetric(metric: MetricName): boolean {
  return /^(recall_any|recall_all|ndcg)@|^mrr$/.test(metric);
}

/**
 * The deepest rank a metric reads (k of recall_any@k, recall_all@k and ndcg@k), or undefined
 * when it reads ranks at any depth (mrr) or reads none.
 */
export function deepestRankRead(metric: MetricName): number | undefined {
  const match = /^(?:recall_any|recall_all|ndcg)@(\d+)$/.exec(metric);
  return match === null ? undefined : Number(match[1]);
}

/** Whether a higher value is better; the reporters use it to colour differences and count wins. */
export function higherIsBetter(metric: MetricName): boolean {
  return !(metric === "leakage" || metric === "tokens");
}

/**
 * Whether a metric's values lie in [0, 1]: recall, MRR, nDCG, coverage and leakage are shares of
 * one ask; tokens is a count. Bounded means get intervals that stay inside the bounds and keep
 * their coverage near them, and their differences lie in [−1, 1].
 */
export function isUnitBounded(metric: MetricName): boolean {
  return metric !== "tokens";
}

import type { Interval, Unit } from "../../harness/summary/types.js";
import { EMPTY_CELL, formatNumber } from "./table.js";

/** What an interval is shown from: its mean and bounds, and how many values it is over. */
type Shown = Pick<Interval, "mean" | "lo" | "hi" | "n">;

/** Token counts are whole-ish numbers in the hundreds; every other metric lies in [0, 1]. */
export function metricDecimals(metric: string): number {
  return metric === "tokens" ? 1 : 3;
}

/** "0.812 [0.700, 0.910]"; an interval over no values is shown as empty, not as 0. */
export function formatInterval(interval: Shown, decimals = 3): string {
  if (interval.n === 0) return EMPTY_CELL;
  return `${formatNumber(interval.mean, decimals)} [${formatNumber(interval.lo, decimals)}, ${formatNumber(interval.hi, decimals)}]`;
}

/** A difference with its sign always shown: "+0.120", "−0.120", "0.000". */
export function formatSigned(value: number, decimals = 3): string {
  const text = formatNumber(value, decimals);
  return text.startsWith("\u2212") || Number(text) === 0 ? text : `+${text}`;
}

export function formatSignedInterval(interval: Shown, decimals = 3): string {
  if (interval.n === 0) return EMPTY_CELL;
  return `${formatSigned(interval.mean, decimals)} [${formatSigned(interval.lo, decimals)}, ${formatSigned(interval.hi, decimals)}]`;
}

/** p-values are never 0 (they are (b + 1)/(n + 1)); small ones are shown as a bound, never as "0.000". */
export function formatP(p: number): string {
  return p < 0.001 ? "<0.001" : p.toFixed(3);
}

export function formatRank(rank: number | null): string {
  return rank === null ? "not ranked" : String(rank);
}

export function formatWtl(c: { wins: number; ties: number; losses: number }): string {
  return `${c.wins}/${c.ties}/${c.losses}`;
}

export const SIGNIFICANT_MARK = "\u2713";

/** "1,536" */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * The units an interval is over, as stated next to it: "16 asks in 8 scenario clusters
 * (Bell–McCaffrey df 3.5)", "1,536 asks, each its own unit", or "7,680 independent (ask, seed)
 * values". The df is the effective number of clusters: fewer than the clusters when a few large
 * ones carry most asks.
 */
export function formatUnits(unit: Unit, interval: Pick<Interval, "n" | "nItems" | "nClusters" | "df">): string {
  if (unit.cluster === "none") return `${formatCount(interval.n)} independent (ask, seed) values`;
  const asks = `${formatCount(interval.nItems)} ${interval.nItems === 1 ? "ask" : "asks"}`;
  if (interval.nClusters === interval.nItems) return `${asks}, each its own unit`;
  return `${asks} in ${formatClusters(interval)}`;
}

/**
 * The independent units of an inference: "8 scenario clusters (Bell–McCaffrey df 3.5)", the df
 * being their effective number, or "15 independent asks" when each ask is its own cluster.
 */
export function formatClusters(interval: Pick<Interval, "nItems" | "nClusters" | "df">): string {
  if (interval.nClusters === interval.nItems) return `${formatCount(interval.nItems)} independent asks`;
  const df = interval.df === undefined ? "" : ` (Bell\u2013McCaffrey df ${formatNumber(interval.df, 1)})`;
  return `${formatCount(interval.nClusters)} scenario clusters${df}`;
}

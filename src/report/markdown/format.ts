import type { Interval } from "../../harness/summary-types.js";
import { EMPTY_CELL, formatNumber } from "./table.js";

/** Token counts are whole-ish numbers in the hundreds; every other metric lies in [0, 1]. */
export function metricDecimals(metric: string): number {
  return metric === "tokens" ? 1 : 3;
}

/** "0.812 [0.700, 0.910]"; an interval over no values is shown as empty, not as 0. */
export function formatInterval(interval: Interval, decimals = 3): string {
  if (interval.n === 0) return EMPTY_CELL;
  return `${formatNumber(interval.mean, decimals)} [${formatNumber(interval.lo, decimals)}, ${formatNumber(interval.hi, decimals)}]`;
}

/** A difference with its sign always shown: "+0.120", "−0.120", "0.000". */
export function formatSigned(value: number, decimals = 3): string {
  const text = formatNumber(value, decimals);
  return text.startsWith("\u2212") || Number(text) === 0 ? text : `+${text}`;
}

export function formatSignedInterval(interval: Interval, decimals = 3): string {
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

/**
 * One verdict per comparison, wherever it is stated: a table's mark or cell and a finding's words
 * come from `comparisonVerdict`, so they cannot disagree with each other or with the interval they
 * stand beside. The interval is read as the reader sees it, at the metric's decimals: a difference
 * shown as [0.000, +0.219] includes 0, whatever the floating-point bound was.
 */
import { comparisonVerdict as summaryVerdict } from "../../harness/summary/summarise.js";
import type { Comparison } from "../../harness/summary/types.js";
import { SIGNIFICANT_MARK, metricDecimals } from "./format.js";

/**
 * - `significant`: significant after its family's adjustment (Holm's or Westfall–Young's), its interval excluding 0;
 * - `per comparison only`: its per-comparison interval excludes 0, but it is not significant after
 *   adjustment (or its test does not agree with its interval);
 * - `not detected`: its interval includes 0;
 * - `identical`: the same value on every unit, so nothing to detect or to miss;
 * - `not comparable`: a rank metric across section layouts, which has no verdict.
 */
export type Verdict = "significant" | "per comparison only" | "not detected" | "identical" | "not comparable";

/**
 * The verdict of one comparison as the reports state it: the summary's verdict (the one rule, see
 * the summary's comparisonVerdict), with its interval read at the decimals shown, so that a
 * difference shown as [0.000, +0.219] is never called one that excludes 0.
 */
export function comparisonVerdict(c: Comparison, metric: string): Verdict {
  const verdict = summaryVerdict(c);
  if (verdict === "not-comparable") return "not comparable";
  if (verdict === "identical") return "identical";
  if (verdict === "not-detected" || !excludesZero(c, metric)) return "not detected";
  return verdict === "significant" ? "significant" : "per comparison only";
}

/** Whether the interval, rounded as shown, lies wholly on one side of 0. */
function excludesZero(c: Comparison, metric: string): boolean {
  const scale = 10 ** metricDecimals(metric);
  return Math.round(c.diff.lo * scale) > 0 || Math.round(c.diff.hi * scale) < 0;
}

/** A verdict as a table cell: never blank. */
export function verdictCell(verdict: Verdict): string {
  if (verdict === "significant") return SIGNIFICANT_MARK;
  if (verdict === "not detected") return "could not detect";
  return verdict;
}

/** The words of the `per comparison only` verdict, for a comparison in a family of `familySize`. */
export function perComparisonOnly(familySize: number): string {
  return `significant per comparison only: the interval excludes 0; not after adjustment over ${familySize} ${familySize === 1 ? "comparison" : "comparisons"}`;
}

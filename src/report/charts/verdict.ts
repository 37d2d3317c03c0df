import { comparisonVerdict } from "../../harness/summary/summarise.js";
import type { Comparison } from "../../harness/summary/types.js";

/** What a comparison with the baseline lets a reader conclude, strongest first, as the charts' legend says it. */
export const VERDICTS = ["significant after adjustment", "significant per comparison only", "could not detect"] as const;
export type Verdict = (typeof VERDICTS)[number];

const LEGEND = {
  significant: "significant after adjustment",
  "per-comparison": "significant per comparison only",
  "not-detected": "could not detect",
  identical: "could not detect",
} as const;

/**
 * The verdict of one comparison in the legend's words (the summary's one verdict, see
 * comparisonVerdict), or null when it has none (see Comparison.comparable). "Per comparison only":
 * its own interval rules out zero, but not once its family is adjusted, so it is a lead to
 * follow, not a result.
 */
export function verdictOf(comparison: Comparison): Verdict | null {
  const verdict = comparisonVerdict(comparison);
  return verdict === "not-comparable" ? null : LEGEND[verdict];
}

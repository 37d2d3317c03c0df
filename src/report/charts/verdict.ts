import { SIGNIFICANCE_LEVEL } from "../../harness/summary/summarise.js";
import type { Comparison } from "../../harness/summary/types.js";

/** What a comparison with the baseline lets a reader conclude, strongest first. */
export const VERDICTS = ["significant after adjustment", "significant per comparison only", "could not detect"] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * The verdict of one comparison, or null when it has none (see Comparison.comparable). "Per
 * comparison only": its own interval or p rules out zero, but not once its Holm family is
 * corrected, so it is a lead to follow, not a result.
 */
export function verdictOf(comparison: Comparison): Verdict | null {
  if (!comparison.comparable) return null;
  if (comparison.significant) return "significant after adjustment";
  const excludesZero = comparison.diff.lo > 0 || comparison.diff.hi < 0;
  return excludesZero || comparison.p < SIGNIFICANCE_LEVEL ? "significant per comparison only" : "could not detect";
}

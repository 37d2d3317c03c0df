/**
 * How a family's p-values were adjusted together: Holm–Bonferroni, or Westfall–Young step-down
 * maxT over joint cluster sign flips when the exact test decided every member over the same
 * clusters (see summarise). Reports name it through `adjustmentName`, so that a table, a finding
 * and a chart never say "Holm" of a p that Westfall–Young gave.
 */
export type Adjustment = "holm" | "westfall-young";

/**
 * The adjustment's name as the reports write it. A comparison without one was built by hand or
 * corrected alone (a family of one), where Holm's adjusted p is its own p.
 */
export function adjustmentName(c: { adjustment?: Adjustment }): string {
  return c.adjustment === "westfall-young" ? "Westfall–Young" : "Holm";
}

/** The header or label of an adjusted p, "p (Holm)" or "p (Westfall–Young)". */
export function adjustedPLabel(c: { adjustment?: Adjustment }): string {
  return `p (${adjustmentName(c)})`;
}

/**
 * Fitting a ranked section under its item limit and token quota, and rendering the block. Only
 * memory lines count against quotas; the tags around them do not.
 */
import type { Section, SectionName, SectionRule } from "./types.js";

export interface FitResult {
  /** Positions (into the given order) that were kept, in order. */
  kept: number[];
  tokensUsed: number;
  /** How many positions were looked at. */
  examined: number;
  /**
   * True when no later candidate could be kept: the limit was reached, `stop` fired, or the
   * quota left is below the cheapest candidate's cost.
   */
  complete: boolean;
}

/**
 * Walks an ordering and keeps what fits: at most `rule.limit` items whose token costs sum to at
 * most `rule.quota`. With `stop` the first item that does not fit ends the section; with `skip`
 * it is passed over.
 */
export function fitSection(
  count: number,
  tokensAt: (position: number) => number,
  rule: Pick<SectionRule, "fit" | "limit" | "quota">,
  /** The smallest cost among all candidates, including those not in this ordering's prefix. */
  minCost = 0,
): FitResult {
  const kept: number[] = [];
  let tokensUsed = 0;
  let position = 0;
  for (; position < count; position++) {
    if (isFull(kept, tokensUsed, rule, minCost)) break;
    const cost = tokensAt(position);
    if (rule.quota !== null && tokensUsed + cost > rule.quota) {
      if (rule.fit === "stop") return { kept, tokensUsed, examined: position + 1, complete: true };
      continue;
    }
    kept.push(position);
    tokensUsed += cost;
  }
  return { kept, tokensUsed, examined: position, complete: isFull(kept, tokensUsed, rule, minCost) };
}

/** Whether a section can take no more: at its limit, or with less room left than any candidate costs. */
function isFull(kept: readonly number[], tokensUsed: number, rule: Pick<SectionRule, "limit" | "quota">, minCost: number): boolean {
  return kept.length >= rule.limit || (rule.quota !== null && rule.quota - tokensUsed < minCost);
}

/** One `<name>` … `</name>` element per non-empty section; lines are already escaped. */
export function renderBlock(sections: readonly { name: SectionName; lines: string[] }[]): string {
  return sections
    .filter((s) => s.lines.length > 0)
    .map((s) => [`<${s.name}>`, ...s.lines, `</${s.name}>`].join("\n"))
    .join("\n");
}

export function emptySection(name: SectionName, quota: number | null): Section {
  return { name, ranked: [], kept: [], dropped: [], tokensUsed: 0, quota };
}

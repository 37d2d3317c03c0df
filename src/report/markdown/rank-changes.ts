import type { ExperimentResults } from "../../harness/results/types.js";
import type { ExperimentSummary, RankChange } from "../../harness/summary/types.js";
import { code, escapeMarkdown } from "./escape.js";
import { formatRank } from "./format.js";
import { ablationLabel } from "./summary-tables.js";
import { EMPTY_CELL, formatNumber, markdownTable } from "./table.js";

type Breakdown = RankChange["baseline"];

/** Rank changes grouped by (scenario, ask), in the summary's order. */
export function rankChangesByAsk(changes: readonly RankChange[]): { scenario: string; ask: string; changes: RankChange[] }[] {
  const groups: { scenario: string; ask: string; changes: RankChange[] }[] = [];
  for (const change of changes) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last.scenario === change.scenario && last.ask === change.ask) last.changes.push(change);
    else groups.push({ scenario: change.scenario, ask: change.ask, changes: [change] });
  }
  return groups;
}

/**
 * Gold id × ablation ranks for one ask. An ablation without a change row for a gold memory kept
 * the baseline's median rank, so its cell repeats it.
 */
export function renderRankTable(summary: ExperimentSummary, changes: readonly RankChange[], ablations?: readonly string[]): string {
  const others = (ablations ?? summary.ablations).filter((a) => a !== summary.baseline);
  const golds = [...new Set(changes.map((c) => c.gold))];
  return markdownTable(
    ["Gold", ablationLabel(summary, summary.baseline), ...others.map(escapeMarkdown), "Moved by"],
    golds.map((gold) => {
      const rows = changes.filter((c) => c.gold === gold);
      const baselineRank = rows[0].baselineRank;
      return [
        code(gold),
        formatRank(baselineRank),
        ...others.map((a) => formatRank(rows.find((c) => c.ablation === a)?.ablationRank ?? baselineRank)),
        rows.filter((c) => others.includes(c.ablation)).map((c) => `${escapeMarkdown(c.ablation)}: ${escapeMarkdown(c.movedBy)}`).join("; "),
      ];
    }),
  );
}

/** rel, rec, imp and total of each changed gold memory, "baseline → ablation". */
export function renderBreakdownTable(changes: readonly RankChange[]): string {
  const cell = (key: "rel" | "rec" | "imp" | "total", base: Breakdown, variant: Breakdown) =>
    `${side(base, key)} \u2192 ${side(variant, key)}`;
  return markdownTable(
    ["Gold", "Ablation", "rel", "rec", "imp", "total"],
    changes.map((c) => [
      code(c.gold),
      escapeMarkdown(c.ablation),
      cell("rel", c.baseline, c.variant),
      cell("rec", c.baseline, c.variant),
      cell("imp", c.baseline, c.variant),
      cell("total", c.baseline, c.variant),
    ]),
  );
}

export function renderRankChanges(results: ExperimentResults, summary: ExperimentSummary): string {
  const parts = [
    "## Rank changes",
    "Each gold memory whose median rank over seeds differs from the baseline's under some ablation " +
      `("not ranked" is worse than any rank). "Moved by" explains the move in one seed, the same on both sides: ` +
      "the signal that most changed the score margin between the gold memory and the memories that changed places " +
      "with it (e.g. \u201crec +0.10 (lot-a overtook it)\u201d: under the ablation, recency gave lot-a 0.10 more over " +
      `the gold memory than under the baseline). The breakdowns are the gold memory's own signals in that seed; ${EMPTY_CELL} means ` +
      "it was not a candidate (filtered or not current).",
  ];
  const byAsk = rankChangesByAsk(summary.rankChanges);
  if (byAsk.length === 0) {
    const detailed = results.trials.some((t) => t.asks.some((a) => a.detail !== undefined));
    parts.push(
      detailed
        ? "No gold memory changes rank under any ablation."
        : "Rank changes are listed only for experiments that record score breakdowns (`detail: true`); this one keeps ranks only.",
    );
    return parts.join("\n\n");
  }
  for (const { scenario, ask, changes } of byAsk) {
    const query = results.experiment.scenarios.find((s) => s.name === scenario)?.asks.find((a) => a.id === ask)?.query;
    parts.push(
      `### ${code(scenario)} / ${code(ask)}`,
      ...(query === undefined ? [] : [`Query: \u201c${escapeMarkdown(query)}\u201d`]),
      renderRankTable(summary, changes),
      "Score breakdown (baseline \u2192 ablation):",
      renderBreakdownTable(changes),
    );
  }
  return parts.join("\n\n");
}

function side(breakdown: Breakdown, key: "rel" | "rec" | "imp" | "total"): string {
  return breakdown === null ? EMPTY_CELL : formatNumber(breakdown[key], 3);
}

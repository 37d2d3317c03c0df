import type { ExperimentResults } from "../../harness/results/types.js";
import { costRows } from "../../harness/summary/cost.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { code } from "./escape.js";
import { formatCount, metricDecimals } from "./format.js";
import { ablationLabel } from "./summary-tables.js";
import { EMPTY_CELL, formatNumber, markdownTable } from "./table.js";

/**
 * Quality beside cost, one row per ablation or system: the first headline metric, the tokens
 * retrieval returned and the budget, the call latencies, and the trials a failing system skipped.
 */
export function renderCostTable(results: ExperimentResults, summary: ExperimentSummary): string {
  const metric = summary.headline[0];
  if (metric === undefined || results.trials.length === 0) return "";
  const rows = costRows(results, metric);
  const ms = (x: number) => formatNumber(x, x < 10 ? 2 : 1);
  const latency = (l: { p50: number; p95: number } | undefined) => (l === undefined ? EMPTY_CELL : `${ms(l.p50)} / ${ms(l.p95)}`);
  const anyBudget = rows.some((r) => r.budget !== undefined);
  const anySkipped = rows.some((r) => r.skipped > 0);
  const table = markdownTable(
    [
      "Ablation or system",
      { header: `${metric} (mean)`, align: "right" },
      { header: "Tokens returned per ask", align: "right" },
      { header: "Memory-line tokens per ask", align: "right" },
      ...(anyBudget ? [{ header: "Over budget (asks × seeds)", align: "right" as const }] : []),
      { header: "write p50 / p95 (ms)", align: "right" },
      { header: "retrieve p50 / p95 (ms)", align: "right" },
      ...(anySkipped ? [{ header: "Skipped trials", align: "right" as const }] : []),
    ],
    rows.map((r) => [
      ablationLabel(summary, r.ablation),
      formatNumber(r.quality, metricDecimals(metric)),
      formatNumber(r.returnedTokens, 1),
      formatNumber(r.lineTokens, 1),
      ...(anyBudget ? [r.budget === undefined || r.budget === null ? EMPTY_CELL : `${formatCount(r.overBudget)} of ${formatCount(r.asks)} (budget ${r.budget})`] : []),
      latency(r.write),
      latency(r.retrieve),
      ...(anySkipped ? [`${r.skipped} of ${r.trials}`] : []),
    ]),
  );
  const notes = [
    `Tokens returned are Gemma tokens of what retrieval gave back: recollect's block with its section tags, or a system's own block, or else the returned memories' lines. ` +
      `Memory-line tokens are the lines alone, as budgets and quotas count them. ` +
      `Latencies are wall times of one call in the recording run, on its machine and under its load: compare them within this table only${results.timing === undefined ? " (this run did not record them)" : ""}.`,
  ];
  if (anyBudget) notes.push(`Systems are told the budget at every retrieval; an ask over it took more than the budget allowed, which makes its coverage not a like-for-like comparison.`);
  if (anySkipped) notes.push(`A skipped trial's system failed (run with \`--on-system-error skip\`); its asks are scored as retrievals that returned nothing.`);
  return [`Quality beside cost (${code(metric)}):`, table, notes.join(" ")].join("\n\n");
}

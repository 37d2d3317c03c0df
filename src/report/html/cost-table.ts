import type { ExperimentResults } from "../../harness/results/types.js";
import { costRows } from "../../harness/summary/cost.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { escapeHtml } from "./escape.js";
import { formatValue } from "./format.js";

/** Quality beside cost, as EVALUATION.md's cost table has it: tokens, budget, latencies, skipped trials. */
export function costTable(results: ExperimentResults, summary: ExperimentSummary): string {
  const metric = summary.headline[0];
  if (metric === undefined || results.trials.length === 0) return "";
  const ms = (x: number) => x.toFixed(x < 10 ? 2 : 1);
  const latency = (l: { p50: number; p95: number } | undefined) => (l === undefined ? "–" : `${ms(l.p50)} / ${ms(l.p95)}`);
  const body = costRows(results, metric)
    .map((r) => {
      const baseline = r.ablation === summary.baseline;
      const budget = r.budget === undefined || r.budget === null ? "–" : `${r.overBudget} of ${r.asks} (budget ${r.budget})`;
      const cells = [formatValue(metric, r.quality), r.returnedTokens.toFixed(1), r.lineTokens.toFixed(1), budget, latency(r.write), latency(r.retrieve), `${r.skipped} of ${r.trials}`];
      return `<tr data-ablation="${escapeHtml(r.ablation)}"${baseline ? ' data-baseline=""' : ""}><th scope="row">${escapeHtml(r.ablation)}${baseline ? ' <span class="tag">baseline</span>' : ""}</th>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`;
    })
    .join("\n");
  const head = [`${metric} (mean)`, "tokens returned per ask", "memory-line tokens per ask", "over budget", "write p50 / p95 (ms)", "retrieve p50 / p95 (ms)", "skipped trials"];
  return `<p class="legend">Gemma tokens of what retrieval returned, and of the memory lines alone; latencies are wall times of one call in the recording run, to compare within this table only.</p>
<div class="table-wrap"><table class="summary cost"><thead><tr><th scope="col">ablation or system</th>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("")}</tr></thead>
<tbody>
${body}
</tbody></table></div>`;
}

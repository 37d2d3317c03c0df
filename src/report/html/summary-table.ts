import { higherIsBetter } from "../../harness/metrics.js";
import type { ExperimentSummary, MetricSummary } from "../../harness/summary/types.js";
import { escapeHtml } from "./escape.js";
import { formatP, formatSigned, formatValue } from "./format.js";

function cell(row: MetricSummary | undefined): string {
  if (row === undefined || row.value.n === 0) return `<td class="empty">–</td>`;
  const { mean, lo, hi, nItems, nClusters } = row.value;
  const beats = row.beats.length > 0 ? `<sup class="beats" title="significantly better than ${escapeHtml(row.beats.join(", "))}">${escapeHtml(row.beats.join(""))}</sup>` : "";
  const parts = [
    `<span class="mean">${formatValue(row.metric, mean)}</span>${beats}`,
    `<span class="ci">[${formatValue(row.metric, lo)}, ${formatValue(row.metric, hi)}]</span>`,
  ];
  let title = `${nItems} asks, ${nClusters} independent units`;
  const vs = row.vsBaseline;
  if (vs !== undefined) {
    const better = higherIsBetter(row.metric) === vs.diff.mean > 0;
    const mood = !vs.significant || vs.diff.mean === 0 ? "same" : better ? "better" : "worse";
    parts.push(
      vs.comparable
        ? `<span class="diff ${mood}">Δ ${formatSigned(row.metric, vs.diff.mean)}${vs.significant ? "*" : ""}</span>`
        : `<span class="diff same">not comparable</span>`,
    );
    if (vs.comparable) {
      title += `; Δ [${formatValue(row.metric, vs.diff.lo)}, ${formatValue(row.metric, vs.diff.hi)}], p = ${formatP(vs.p)}, Holm p = ${formatP(vs.pHolm)} (family: ${vs.family})`;
      if (vs.mde !== undefined) title += `, MDE ${formatValue(row.metric, vs.mde)}`;
      title += `; wins/ties/losses over asks ${vs.wins}/${vs.ties}/${vs.losses}`;
    }
  }
  return `<td title="${escapeHtml(title)}">${parts.join("<br>")}</td>`;
}

function groupTable(summary: ExperimentSummary, group: string): string {
  const byKey = new Map(
    summary.rows.filter((r) => r.group === group).map((r) => [`${r.ablation}\u0000${r.metric}`, r]),
  );
  const head = summary.metrics.map((m) => `<th scope="col">${escapeHtml(m)}${higherIsBetter(m) ? "" : " ↓"}</th>`).join("");
  const body = summary.ablations
    .map((ablation) => {
      const letter = summary.rows.find((r) => r.ablation === ablation)?.letter ?? "";
      const baseline = ablation === summary.baseline;
      const name = `<th scope="row"><span class="letter">${escapeHtml(letter)}</span> ${escapeHtml(ablation)}${baseline ? ' <span class="tag">baseline</span>' : ""}</th>`;
      const attributes = `data-ablation="${escapeHtml(ablation)}"${baseline ? ' data-baseline=""' : ""}`;
      return `<tr ${attributes}>${name}${summary.metrics.map((m) => cell(byKey.get(`${ablation}\u0000${m}`))).join("")}</tr>`;
    })
    .join("\n");
  return `<div class="table-wrap"><table class="summary"><thead><tr><th scope="col">ablation</th>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}

/**
 * The ablation × metric tables: mean, 95% interval, the letters of the ablations each one beats
 * significantly (ranx style), and the paired difference from the baseline. Every group after
 * "all" (one per ask category) is folded away. Each table scrolls sideways inside its own box,
 * with the ablation column pinned.
 */
export function summaryTables(summary: ExperimentSummary): string {
  const [first, ...rest] = summary.groups;
  if (first === undefined) return "<p>No summary rows.</p>";
  const legend =
    `<p class="legend">Mean with its 95% interval over ${escapeHtml(summary.unit.label)}. Superscript letters: the other ablations this one beats significantly (Holm-corrected; the baseline is compared in Δ). Δ: paired difference from the baseline; * marks a significant one after Holm within its family. ↓: lower is better. Hover a cell for p-values, its Holm family and wins/ties/losses.</p>`;
  const others = rest
    .map(
      (group) =>
        `<details class="group" data-category="${escapeHtml(group)}"><summary>Category: ${escapeHtml(group)}</summary>\n${groupTable(summary, group)}\n</details>`,
    )
    .join("\n");
  return `${legend}\n<h4>${escapeHtml(first === "all" ? "All asks" : first)}</h4>\n${groupTable(summary, first)}\n${others}`;
}

import { higherIsBetter } from "../../harness/metrics.js";
import { adjustmentName } from "../../harness/summary/adjustment.js";
import type { ExperimentSummary, MetricSummary } from "../../harness/summary/types.js";
import { comparisonVerdict } from "../markdown/verdict.js";
import { escapeHtml } from "./escape.js";
import { formatP, formatSigned, formatValue } from "./format.js";

/**
 * A cell's figures, drawn as a button: its note (units, the interval of Δ, p-values, the family
 * and its adjustment, the MDE, wins/ties/losses) goes to `notes`, and the page shows it when the cell is
 * tapped or clicked, since a touch screen has no hover. The notes travel in the packed data.
 */
function cell(row: MetricSummary | undefined, name: string, notes: string[]): string {
  if (row === undefined || row.value.n === 0) return `<td class="empty">–</td>`;
  const { mean, lo, hi, nItems, nClusters } = row.value;
  const beats = row.beats.length > 0 ? `<sup class="beats" title="significantly better than ${escapeHtml(row.beats.join(", "))}">${escapeHtml(row.beats.join(""))}</sup>` : "";
  const parts = [
    `<span class="mean">${formatValue(row.metric, mean)}</span>${beats}`,
    `<span class="ci">[${formatValue(row.metric, lo)}, ${formatValue(row.metric, hi)}]</span>`,
  ];
  let note = `${name}: ${nItems} asks, ${nClusters} independent units`;
  const vs = row.vsBaseline;
  if (vs !== undefined) {
    const better = higherIsBetter(row.metric) === vs.diff.mean > 0;
    const significant = comparisonVerdict(vs, row.metric) === "significant";
    const mood = !significant || vs.diff.mean === 0 ? "same" : better ? "better" : "worse";
    parts.push(
      vs.comparable
        ? `<span class="diff ${mood}">Δ ${formatSigned(row.metric, vs.diff.mean)}${significant ? "*" : ""}</span>`
        : `<span class="diff same">not comparable</span>`,
    );
    if (vs.comparable) {
      note += `; Δ [${formatValue(row.metric, vs.diff.lo)}, ${formatValue(row.metric, vs.diff.hi)}], p = ${formatP(vs.p)}, ${adjustmentName(vs)} p = ${formatP(vs.pHolm)} (family: ${vs.family})`;
      if (vs.mde !== undefined) note += `, MDE ${formatValue(row.metric, vs.mde)}`;
      note += `; wins/ties/losses over asks ${vs.wins}/${vs.ties}/${vs.losses}`;
    }
  }
  notes.push(note);
  return `<td><button type="button" class="cell" data-note="${notes.length - 1}">${parts.join("<br>")}</button></td>`;
}

function groupTable(summary: ExperimentSummary, group: string, notes: string[]): string {
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
      return `<tr ${attributes}>${name}${summary.metrics.map((m) => cell(byKey.get(`${ablation}\u0000${m}`), `${ablation} · ${m} · ${groupName(group)}`, notes)).join("")}</tr>`;
    })
    .join("\n");
  return `<div class="table-wrap"><table class="summary"><thead><tr><th scope="col">ablation</th>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}

const groupName = (group: string) => (group === "all" ? "all asks" : `category ${group}`);

/**
 * The tables' markup; the notes their cells open, by data-note index; and the tables of the
 * categories, by data-group index. A category's table is folded away, and LoCoMo has five of
 * them at 160 KB each, so it travels packed and the page inserts it when it is unfolded.
 */
export interface SummaryTables {
  html: string;
  notes: string[];
  groups: string[];
}

/**
 * The ablation × metric tables: mean, 95% interval, the letters of the ablations each one beats
 * significantly (ranx style), and the paired difference from the baseline. Every group after
 * "all" (one per ask category) is folded away. Each table scrolls sideways inside its own box,
 * with the ablation column pinned.
 */
export function summaryTables(summary: ExperimentSummary): SummaryTables {
  const [first, ...rest] = summary.groups;
  if (first === undefined) return { html: "<p>No summary rows.</p>", notes: [], groups: [] };
  const notes: string[] = [];
  const legend =
    `<p class="legend">Mean with its 95% interval over ${escapeHtml(summary.unit.label)}. Superscript letters: the other ablations this one beats significantly (Holm-corrected; the baseline is compared in Δ). Δ: paired difference from the baseline; * marks a significant one after its family's adjustment (${familyAdjustments(summary)}). ↓: lower is better. Tap or click a cell for its p-values, its family and wins/ties/losses.</p>`;
  const main = groupTable(summary, first, notes);
  const groups = rest.map((group) => groupTable(summary, group, notes));
  const others = rest
    .map((group, i) => `<details class="group" data-category="${escapeHtml(group)}" data-group="${i}"><summary>Category: ${escapeHtml(group)}</summary></details>`)
    .join("\n");
  return { html: `${legend}\n<h4>${escapeHtml(first === "all" ? "All asks" : first)}</h4>\n${main}\n${others}`, notes, groups };
}

/** The adjustments the summary's families used, named: "Holm", or "Westfall–Young where the exact test decided a whole family, Holm otherwise". */
function familyAdjustments(summary: ExperimentSummary): string {
  const names = [...new Set(summary.families.map(adjustmentName))];
  if (names.length !== 1) return "Westfall–Young where the exact test decided the whole family, Holm otherwise";
  return names[0];
}

import { compile } from "vega-lite";
import type { ExperimentResults } from "../../harness/results/types.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import type { ChartSpec } from "../charts/chart-spec.js";
import { FONT_FAMILY } from "../charts/fonts.js";
import type { Findings } from "../reporter.js";
import type { BrowserBundles } from "./bundles.js";
import { CLIENT_SCRIPT } from "./client-script.js";
import { contentSecurityPolicy } from "./csp.js";
import { drillData, drillDowns } from "./drill-down.js";
import { escapeHtml, htmlId, scriptText } from "./escape.js";
import { markdownBlock, markdownInline } from "./markdown.js";
import { packJson } from "./packed-data.js";
import { STYLE } from "./style.js";
import { costTable } from "./cost-table.js";
import { type SummaryTables, summaryTables } from "./summary-table.js";

export interface ExperimentPage {
  results: ExperimentResults;
  summary: ExperimentSummary;
  charts: ChartSpec[];
}

/** The PNGs carry DejaVu; a browser may not have it, so the page lets it fall back to a plain sans. */
const PAGE_FONT = `${FONT_FAMILY}, Helvetica Neue, Arial, sans-serif`;

/**
 * The chart as Vega, compiled here rather than in the browser: the page then needs only Vega's
 * runtime, not Vega-Lite's compiler, which would weigh a quarter of a megabyte more.
 */
function vegaSpec(chart: ChartSpec): unknown {
  const spec = chart.spec as { config?: Record<string, unknown> };
  return compile({ ...spec, config: { ...spec.config, font: PAGE_FONT } } as typeof chart.spec).spec;
}

/** A box per chart; its spec, by data-spec index, travels in the experiment's packed data. */
function chartsSection(index: number, charts: ChartSpec[]): string {
  if (charts.length === 0) return '<p class="none">No charts: the results hold no data to draw.</p>';
  return `<div class="charts">\n${charts
    .map((chart, i) => {
      // The spec draws its own title; the label names the chart for screen readers.
      return `<figure class="chart-figure" aria-label="${escapeHtml(chart.title)}">
<div class="chart" id="${htmlId("chart", index, chart.name)}" data-chart="${escapeHtml(chart.name)}" data-spec="${i}"></div></figure>`;
    })
    .join("\n")}\n</div>`;
}

function options(values: readonly string[], all: string): string {
  return [`<option value="">${escapeHtml(all)}</option>`, ...values.map((v) => `<option value="${escapeHtml(v)}">${escapeHtml(v)}</option>`)].join("");
}

/** Selects that hide the rows, tables and asks of other ablations, scenarios and categories. */
function filters(page: ExperimentPage): string {
  const { experiment } = page.results;
  const categories = [...new Set(experiment.scenarios.flatMap((s) => s.asks.flatMap((a) => (a.category ? [a.category] : []))))].sort();
  const select = (name: string, label: string, values: readonly string[], all: string) =>
    `<label>${label} <select data-filter="${name}">${options(values, all)}</select></label>`;
  return `<form class="filters" aria-label="Filter ${escapeHtml(experiment.name)}">
${select("ablation", "Ablation", experiment.ablations.map((a) => a.name), "every ablation")}
${select("scenario", "Scenario", experiment.scenarios.map((s) => s.name), "every scenario")}
${categories.length > 0 ? select("category", "Category", categories, "every category") : ""}
<span class="legend">The baseline stays in view for comparison.</span>
</form>`;
}

function ablationsTable(page: ExperimentPage): string {
  const { experiment } = page.results;
  const rows = experiment.ablations
    .map((a) => {
      const baseline = a.name === experiment.baseline;
      const tag = baseline ? ' <span class="tag">baseline</span>' : "";
      return `<tr data-ablation="${escapeHtml(a.name)}"${baseline ? ' data-baseline=""' : ""}><th scope="row"><code>${escapeHtml(a.name)}</code>${tag}</th><td>${markdownInline(a.description)}</td></tr>`;
    })
    .join("\n");
  return `<div class="table-wrap"><table class="ablations"><thead><tr><th scope="col">ablation</th><th scope="col">what it changes</th></tr></thead>
<tbody>
${rows}
</tbody></table></div>`;
}

/**
 * What the page's script reads for one experiment, packed: the charts' specs, every ask with what
 * each ablation and seed did with it, the notes the summary cells open and the folded tables.
 */
function dataBlock(id: string, page: ExperimentPage, tables: SummaryTables): string {
  const data = { charts: page.charts.map(vegaSpec), asks: drillData(page.results), notes: tables.notes, groups: tables.groups };
  return `<script type="text/plain" id="${id}" data-packing="zlib base64">${packJson(data)}</script>`;
}

function experimentSection(index: number, page: ExperimentPage): string {
  const { experiment } = page.results;
  const dataId = htmlId("data", index);
  const tables = summaryTables(page.summary);
  const asks = experiment.scenarios.reduce((n, s) => n + s.asks.length, 0);
  const facts: [string, string][] = [
    ["file", `<code>${escapeHtml(experiment.file)}</code>`],
    ["baseline", `<code>${escapeHtml(experiment.baseline)}</code>`],
    ["seeds", escapeHtml(experiment.seeds.join(", "))],
    ["k", escapeHtml(experiment.k.join(", "))],
    ["scenarios", `${experiment.scenarios.length} scenarios, ${asks} asks`],
  ];
  return `<section class="experiment" id="${htmlId("experiment", experiment.name)}" data-data="${dataId}">
<h2>${escapeHtml(experiment.name)}</h2>
<div class="description">${markdownBlock(experiment.description)}</div>
<dl class="facts">${facts.map(([t, d]) => `<dt>${t}</dt><dd>${d}</dd>`).join("")}</dl>
${filters(page)}
<h3>Ablations</h3>
${ablationsTable(page)}
<h3>All metrics by ablation</h3>
${tables.html}
<h3>Cost</h3>
${costTable(page.results, page.summary)}
<h3>Charts</h3>
<p class="legend">Hover a mark for its values; the tables above hold every figure.</p>
${chartsSection(index, page.charts)}
<h3>Asks</h3>
<p class="legend">Every ask, a page at a time, grouped by scenario; the filters above choose which. Open an ask to see, for every ablation and seed, the ids that reached the block (gold <mark>marked</mark>, stale <del class="stale">struck</del>), the gold ranks and their score breakdown.</p>
${drillDowns(page.results)}
${dataBlock(dataId, page, tables)}
</section>`;
}

/** The generated findings, the same sentences EVALUATION.md opens with; nothing when there are none. */
function findingsBox(findings: Findings): string {
  const withSentences = findings.filter((f) => f.sentences.length > 0);
  if (withSentences.length === 0) return "";
  const parts = withSentences.map(
    (f) =>
      `<h3>${escapeHtml(f.experiment)}</h3>\n<ul>${f.sentences.map((s) => `<li>${markdownInline(s)}</li>`).join("")}</ul>`,
  );
  return `<section class="findings" aria-labelledby="findings-title"><h2 id="findings-title">Findings</h2>\n${parts.join("\n")}\n</section>`;
}

/**
 * The whole report as one HTML document with Vega inlined, so it opens from file:// with no
 * network. It is a pure function of the results: no dates, no random ids.
 */
export function renderPage(pages: ExperimentPage[], bundles: BrowserBundles, findings: Findings = []): string {
  const nav = pages
    .map((p) => `<li><a href="#${htmlId("experiment", p.results.experiment.name)}">${escapeHtml(p.results.experiment.name)}</a></li>`)
    .join("");
  const body =
    pages.length === 0
      ? '<p class="none">No recorded experiments.</p>'
      : pages.map((page, i) => experimentSection(i, page)).join("\n");
  const scripts = [scriptText(bundles.vega), CLIENT_SCRIPT];
  // The policy comes first in <head>, so that it governs everything after it.
  const policy = contentSecurityPolicy({ scripts, styles: [STYLE] });
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>recollect report</title>
<style>${STYLE}</style>
</head>
<body>
<header class="page"><h1>recollect report</h1>
<p class="legend">Generated from the recorded results by <code>npm run experiment</code>; do not edit it by hand.</p>
<nav><ul>${nav}</ul></nav></header>
<main>
${findingsBox(findings)}
${body}
</main>
<div class="note" role="status" aria-live="polite" hidden><p></p><button type="button" data-close>Close</button></div>
${scripts.map((script) => `<script>${script}</script>`).join("\n")}
</body>
</html>
`;
}

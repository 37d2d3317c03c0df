import type { ExperimentResults } from "../../harness/results/types.js";
import type { ExperimentSummary } from "../../harness/summary-types.js";
import type { ChartSpec } from "../charts/chart-spec.js";
import { FONT_FAMILY } from "../charts/fonts.js";
import type { BrowserBundles } from "./bundles.js";
import { CLIENT_SCRIPT } from "./client-script.js";
import { drillDowns } from "./drill-down.js";
import { escapeHtml, htmlId, jsonForScript, scriptText } from "./escape.js";
import { STYLE } from "./style.js";
import { summaryTables } from "./summary-table.js";

export interface ExperimentPage {
  results: ExperimentResults;
  summary: ExperimentSummary;
  charts: ChartSpec[];
}

/** The PNGs carry DejaVu; a browser may not have it, so the page lets it fall back to a plain sans. */
const PAGE_FONT = `${FONT_FAMILY}, Helvetica Neue, Arial, sans-serif`;

function withPageFont(chart: ChartSpec): unknown {
  const spec = chart.spec as { config?: Record<string, unknown> };
  return { ...spec, config: { ...spec.config, font: PAGE_FONT } };
}

function chartsSection(index: number, charts: ChartSpec[]): string {
  if (charts.length === 0) return '<p class="none">No charts: the results hold no data to draw.</p>';
  return `<div class="charts">\n${charts
    .map((chart) => {
      const id = htmlId("chart", index, chart.name);
      // The spec draws its own title; the label names the chart for screen readers.
      return `<figure class="chart-figure" aria-label="${escapeHtml(chart.title)}">
<div class="chart" id="${id}" data-chart="${escapeHtml(chart.name)}" data-spec="${id}--spec"></div>
<script type="application/json" id="${id}--spec">${jsonForScript(withPageFont(chart))}</script></figure>`;
    })
    .join("\n")}\n</div>`;
}

function experimentSection(index: number, page: ExperimentPage): string {
  const { experiment } = page.results;
  const facts: [string, string][] = [
    ["file", `<code>${escapeHtml(experiment.file)}</code>`],
    ["baseline", `<code>${escapeHtml(experiment.baseline)}</code>`],
    [
      "ablations",
      experiment.ablations.map((a) => `<code title="${escapeHtml(a.description)}">${escapeHtml(a.name)}</code>`).join(", "),
    ],
    ["seeds", escapeHtml(experiment.seeds.join(", "))],
    ["k", escapeHtml(experiment.k.join(", "))],
    ["scenarios", escapeHtml(experiment.scenarios.map((s) => `${s.name} (${s.asks.length} asks)`).join(", "))],
  ];
  return `<section class="experiment" id="${htmlId("experiment", experiment.name)}">
<h2>${escapeHtml(experiment.name)}</h2>
<p>${escapeHtml(experiment.description)}</p>
<dl class="facts">${facts.map(([t, d]) => `<dt>${t}</dt><dd>${d}</dd>`).join("")}</dl>
<h3>Summary</h3>
${summaryTables(page.summary)}
<h3>Charts</h3>
<p class="legend">Hover a mark for its values.</p>
${chartsSection(index, page.charts)}
<h3>Asks</h3>
<p class="legend">Open an ask to see, for every ablation and seed, the ids that reached the block (gold <mark>marked</mark>, stale <del class="stale">struck</del>), the gold ranks and their score breakdown.</p>
${drillDowns(page.results)}
</section>`;
}

/**
 * The whole report as one HTML document with the libraries inlined, so it opens from file://
 * with no network. It is a pure function of the results: no dates, no random ids.
 */
export function renderPage(pages: ExperimentPage[], bundles: BrowserBundles): string {
  const nav = pages
    .map((p) => `<li><a href="#${htmlId("experiment", p.results.experiment.name)}">${escapeHtml(p.results.experiment.name)}</a></li>`)
    .join("");
  const body =
    pages.length === 0
      ? '<p class="none">No recorded experiments.</p>'
      : pages.map((page, i) => experimentSection(i, page)).join("\n");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>recollect report</title>
<style>${STYLE}</style>
</head>
<body>
<header class="page"><h1>recollect report</h1>
<p class="legend">Generated from the recorded results; regenerate it with the report command rather than editing it.</p>
<nav><ul>${nav}</ul></nav></header>
<main>
${body}
</main>
<script>${scriptText(bundles.vega)}</script>
<script>${scriptText(bundles.vegaLite)}</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}

import type { TopLevelSpec } from "vega-lite";
import type { ExperimentSummary, MetricSummary } from "../../harness/summary-types.js";
import { higherIsBetter } from "../../harness/metrics.js";
import { CHART_CONFIG, ablationColor } from "./theme.js";

/**
 * The rate metrics a reader looks at first. All of them lie in [0, 1], so the panels share one
 * y scale; tokens and the other k values stay in the tables.
 */
export function keyMetrics(metrics: readonly string[]): string[] {
  const recallAny = metrics
    .filter((m) => m.startsWith("recall_any@"))
    .sort((a, b) => Number(a.split("@")[1]) - Number(b.split("@")[1]));
  const wanted = [recallAny[0], "mrr", "coverage", "leakage"];
  return wanted.filter((m): m is string => m !== undefined && metrics.includes(m));
}

/** Each ablation's ranx letter; letters follow the ablation order, so any metric's rows give them. */
export function ablationLetters(summary: ExperimentSummary): Map<string, string> {
  const letters = new Map<string, string>();
  for (const row of summary.rows) {
    if (row.group === "all" && !letters.has(row.ablation)) letters.set(row.ablation, row.letter);
  }
  return letters;
}

function panelTitle(metric: string): string {
  return higherIsBetter(metric) ? metric : `${metric} (lower is better)`;
}

function isReportable(row: MetricSummary): boolean {
  return row.value.n > 0 && Number.isFinite(row.value.mean);
}

export function metricsChart(summary: ExperimentSummary): TopLevelSpec | null {
  const metrics = keyMetrics(summary.metrics);
  const letters = ablationLetters(summary);
  const label = (ablation: string) => `${letters.get(ablation) ?? "?"} · ${ablation}`;
  const values = summary.rows
    .filter((row) => row.group === "all" && metrics.includes(row.metric) && isReportable(row))
    .map((row) => ({
      metric: row.metric,
      panel: panelTitle(row.metric),
      ablation: row.ablation,
      label: label(row.ablation),
      mean: row.value.mean,
      lo: row.value.lo,
      hi: row.value.hi,
      n: row.value.n,
      beats: row.beats.length > 0 ? `> ${row.beats.join(",")}` : "",
      vsBaseline: row.vsBaseline
        ? `${row.vsBaseline.diff.mean >= 0 ? "+" : ""}${row.vsBaseline.diff.mean.toFixed(3)} (p_holm ${row.vsBaseline.pHolm.toPrecision(2)})`
        : "baseline",
    }));
  if (values.length === 0) return null;
  const shown = metrics.filter((m) => values.some((v) => v.metric === m));
  const color = ablationColor(summary.ablations);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${summary.experiment}: key metrics per ablation`,
      subtitle: "Mean over asks × seeds; bars are 95% bootstrap intervals; \"> b\" marks a significant win over b",
    },
    config: CHART_CONFIG,
    data: { values },
    facet: {
      column: { field: "panel", type: "nominal", sort: shown.map(panelTitle), title: null, header: { labelFontWeight: "bold" } },
    },
    spec: {
      width: Math.max(120, 34 * summary.ablations.length),
      height: 220,
      encoding: {
        x: {
          field: "label",
          type: "nominal",
          sort: summary.ablations.map(label),
          title: null,
          axis: { labelAngle: -35 },
        },
      },
      layer: [
        {
          mark: { type: "rule", strokeWidth: 2 },
          encoding: {
            y: { field: "lo", type: "quantitative", scale: { domain: [0, 1.1] }, title: "mean (95% interval)", axis: { values: [0, 0.2, 0.4, 0.6, 0.8, 1] } },
            y2: { field: "hi" },
            color: { field: "ablation", type: "nominal", scale: color, legend: null },
          },
        },
        {
          mark: { type: "point", filled: true, size: 70 },
          encoding: {
            y: { field: "mean", type: "quantitative" },
            color: { field: "ablation", type: "nominal", scale: color, legend: null },
            tooltip: [
              { field: "ablation", type: "nominal" },
              { field: "metric", type: "nominal" },
              { field: "mean", type: "quantitative", format: ".3f" },
              { field: "lo", type: "quantitative", format: ".3f", title: "95% lo" },
              { field: "hi", type: "quantitative", format: ".3f", title: "95% hi" },
              { field: "n", type: "quantitative", title: "ask × seed pairs" },
              { field: "vsBaseline", type: "nominal", title: "vs baseline" },
            ],
          },
        },
        {
          mark: { type: "text", dy: -10, fontSize: 10, color: "#333" },
          encoding: {
            y: { field: "hi", type: "quantitative" },
            text: { field: "beats", type: "nominal" },
          },
        },
      ],
    },
    resolve: { scale: { y: "shared" } },
  } as TopLevelSpec;
}

import type { TopLevelSpec } from "vega-lite";
import { higherIsBetter } from "../../harness/metrics.js";
import { adjustmentName } from "../../harness/summary/adjustment.js";
import type { ExperimentSummary, MetricSummary } from "../../harness/summary/types.js";
import { measureTextWidth } from "./text-measure.js";
import { COLUMN_SPACING, panelWidth } from "./panel-width.js";
import { BASELINE_COLOR, CHART_CONFIG, ablationColor } from "./theme.js";

/** Two panels a row, with the ablation names once on the left and the letters right of each panel. */
const COLUMNS = 2;
const MAX_PANEL_WIDTH = 290;
const MIN_PANEL_WIDTH = 150;
const ROW_STEP = 17;
/** Room right of each panel for the letters of the ablations a row beats. */
const LETTERS_OFFSET = 8;
const LETTERS_FONT_SIZE = 10;

/**
 * The rate metrics a reader looks at first. All of them lie in [0, 1], so the panels share one
 * x scale; tokens and the other k values stay in the tables.
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

/** A panel heading that says which way is better. */
export function panelTitle(metric: string): string {
  return higherIsBetter(metric) ? metric : `${metric} (lower is better)`;
}

function isReportable(row: MetricSummary): boolean {
  return row.value.n > 0 && Number.isFinite(row.value.mean);
}

/** A metric whose every ablation has the same mean and interval tells nothing a panel could show. */
function isConstant(rows: readonly MetricSummary[]): boolean {
  const first = rows[0];
  return (
    first !== undefined &&
    rows.every((r) => r.value.mean === first.value.mean && r.value.lo === first.value.lo && r.value.hi === first.value.hi)
  );
}

/**
 * Means with their 95% intervals, one row per ablation and one panel per key metric. The
 * letters right of each panel name the ablations that row beats significantly (ranx style), each
 * in its own row, so they can never run into one another. Metrics that are the same for every
 * ablation get no panel; the subtitle names them and their value.
 */
export function metricsChart(summary: ExperimentSummary): TopLevelSpec | null {
  const letters = ablationLetters(summary);
  const label = (ablation: string) =>
    `${letters.get(ablation) ?? "?"} · ${ablation}${ablation === summary.baseline ? " (baseline)" : ""}`;
  const rowsOf = (metric: string) =>
    summary.rows.filter((row) => row.group === "all" && row.metric === metric && isReportable(row));
  const candidates = keyMetrics(summary.metrics).filter((m) => rowsOf(m).length > 0);
  const constant = candidates.filter((m) => isConstant(rowsOf(m)));
  const shown = candidates.filter((m) => !constant.includes(m));
  if (shown.length === 0) return null;

  const values = shown.flatMap((metric) =>
    rowsOf(metric).map((row) => ({
      metric,
      panel: panelTitle(metric),
      ablation: row.ablation,
      label: label(row.ablation),
      mean: row.value.mean,
      lo: row.value.lo,
      hi: row.value.hi,
      n: row.value.n,
      beats: row.beats.length > 0 ? `> ${row.beats.join("")}` : "",
      vsBaseline: row.vsBaseline
        ? `${row.vsBaseline.diff.mean >= 0 ? "+" : ""}${row.vsBaseline.diff.mean.toFixed(3)} (p ${row.vsBaseline.pHolm.toPrecision(2)}, ${adjustmentName(row.vsBaseline)})`
        : "baseline",
    })),
  );
  const lettersWidth = Math.max(0, ...values.map((v) => measureTextWidth({ fontSize: LETTERS_FONT_SIZE }, v.beats)));
  const width = panelWidth({
    labels: summary.ablations.map(label),
    columns: COLUMNS,
    min: MIN_PANEL_WIDTH,
    max: MAX_PANEL_WIDTH,
    beside: LETTERS_OFFSET + lettersWidth,
  });
  const dropped = constant.map((m) => `${m} is ${rowsOf(m)[0]!.value.mean.toFixed(3)} for every ablation (no panel)`);
  const color = ablationColor(summary.ablations, summary.baseline);
  const y = { field: "label", type: "nominal", sort: summary.ablations.map(label), title: null } as const;
  // Padding keeps a point at 0 or 1 clear of the frame.
  const x = {
    type: "quantitative",
    scale: { domain: [0, 1], nice: false, padding: 6 },
    axis: { values: [0, 0.25, 0.5, 0.75, 1], format: ".2f" },
    title: "mean and 95% interval",
  } as const;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${summary.experiment}: key metrics per ablation`,
      subtitle: [
        `Mean with its 95% interval over ${summary.unit.label}; the dashed line is ${summary.baseline}, the baseline.`,
        "\"> bc\": significantly better than ablations b and c (Holm-corrected; the baseline is compared in EVALUATION.md).",
        ...dropped,
      ],
    },
    config: CHART_CONFIG,
    data: { values },
    facet: { field: "panel", type: "nominal", sort: shown.map(panelTitle), title: null },
    columns: COLUMNS,
    spacing: { column: COLUMN_SPACING, row: 14 },
    spec: {
      width,
      height: { step: ROW_STEP },
      layer: [
        {
          transform: [{ filter: { field: "ablation", equal: summary.baseline } }],
          mark: { type: "rule", strokeDash: [4, 3], color: BASELINE_COLOR, opacity: 0.5 },
          encoding: { x: { field: "mean", ...x } },
        },
        {
          mark: { type: "rule", strokeWidth: 2.5 },
          encoding: {
            y,
            x: { field: "lo", ...x },
            x2: { field: "hi" },
            color: { field: "ablation", type: "nominal", scale: color, legend: null },
          },
        },
        {
          mark: { type: "point", filled: true, size: 60, opacity: 1 },
          encoding: {
            y,
            x: { field: "mean", ...x },
            color: { field: "ablation", type: "nominal", scale: color, legend: null },
            tooltip: [
              { field: "ablation", type: "nominal" },
              { field: "metric", type: "nominal" },
              { field: "mean", type: "quantitative", format: ".3f" },
              { field: "lo", type: "quantitative", format: ".3f", title: "95% lo" },
              { field: "hi", type: "quantitative", format: ".3f", title: "95% hi" },
              { field: "n", type: "quantitative", title: "ask × seed pairs" },
              { field: "vsBaseline", type: "nominal", title: "vs baseline" },
              { field: "beats", type: "nominal", title: "beats" },
            ],
          },
        },
        {
          mark: { type: "text", align: "left", baseline: "middle", fontSize: LETTERS_FONT_SIZE, color: "#222", x: width + LETTERS_OFFSET },
          encoding: { y, text: { field: "beats", type: "nominal" } },
        },
      ],
    },
    resolve: { scale: { x: "shared", y: "shared" }, axis: { x: "independent" } },
  } as TopLevelSpec;
}

import type { TopLevelSpec } from "vega-lite";
import type { ExperimentResults } from "../../harness/results/types.js";
import { costRows } from "../../harness/summary/cost.js";
import { ALL_GROUP, findRow } from "../../harness/summary/summarise.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { ABLATION_COLORS, CHART_CONFIG, MAX_CHART_WIDTH, ablationColor } from "./theme.js";

const PANEL_HEIGHT = 260;
const SPACING = 40;
/** Axis titles, ticks and padding beside the panels, with room to spare. */
const FRAME = 180;
const LEGEND_COLUMNS = 4;
const SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross"] as const;

/**
 * Quality against cost: the first headline metric (mean and 95% interval) against the tokens
 * retrieval returned per ask, and against the median latency of a retrieval when the run
 * measured it. Both cost axes are logarithmic, since a full history can cost a hundred times a
 * block. Null when the experiment has no trials to place.
 */
export function costChart(results: ExperimentResults, summary: ExperimentSummary): TopLevelSpec | null {
  const metric = summary.headline[0];
  if (metric === undefined || results.trials.length === 0) return null;
  const rows = costRows(results, metric);
  const values = rows.map((row) => {
    const interval = findRow(summary, row.ablation, metric, ALL_GROUP).value;
    return {
      ablation: row.ablation,
      label: row.ablation === summary.baseline ? `${row.ablation} (baseline)` : row.ablation,
      mean: interval.mean,
      lo: interval.lo,
      hi: interval.hi,
      tokens: Math.max(1, row.returnedTokens),
      latency: row.retrieve === undefined ? null : Math.max(0.001, row.retrieve.p50),
    };
  });
  const timed = values.every((v) => v.latency !== null);
  const panels = timed ? 2 : 1;
  const width = Math.floor((MAX_CHART_WIDTH - FRAME - (panels - 1) * SPACING) / panels);
  // Colours repeat after ten ablations, so each ten takes the next shape: no two look alike.
  const labels = values.map((v) => v.label);
  const color = { domain: labels, range: ablationColor(summary.ablations, summary.baseline).range };
  const shapes = { domain: labels, range: labels.map((_, i) => SHAPES[Math.floor(i / ABLATION_COLORS.length) % SHAPES.length]!) };
  const legend = { title: null, columns: LEGEND_COLUMNS, symbolSize: 70 };
  const y = { type: "quantitative", scale: { domain: [0, 1], nice: false, padding: 6 }, axis: { format: ".2f" }, title: `${metric} (mean, 95% interval)` } as const;
  const panel = (field: "tokens" | "latency", title: string) => {
    const scale = { type: "log", domain: logDomain(values.map((v) => v[field] ?? 1)), nice: false } as const;
    return {
    width,
    height: PANEL_HEIGHT,
    layer: [
      {
        mark: { type: "rule", strokeWidth: 2 },
        encoding: {
          x: { field, type: "quantitative", scale, title },
          y: { field: "lo", ...y },
          y2: { field: "hi" },
          color: { field: "label", type: "nominal", scale: color, legend },
        },
      },
      {
        mark: { type: "point", filled: true, size: 70, opacity: 1 },
        encoding: {
          x: { field, type: "quantitative", scale, title },
          y: { field: "mean", ...y },
          color: { field: "label", type: "nominal", scale: color, legend },
          shape: { field: "label", type: "nominal", scale: shapes, legend },
          tooltip: [
            { field: "ablation", type: "nominal" },
            { field: "mean", type: "quantitative", format: ".3f", title: metric },
            { field: "tokens", type: "quantitative", format: ".0f", title: "tokens returned per ask" },
            { field: "latency", type: "quantitative", format: ".3f", title: "retrieve p50 (ms)" },
          ],
        },
      },
    ],
    };
  };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${summary.experiment}: quality against cost`,
      subtitle: [
        `${metric} against the Gemma tokens retrieval returned per ask${timed ? ", and against the median wall time of one retrieval (the recording run's)" : ""}.`,
        "Up and to the left is better; both cost axes are logarithmic. Hover a point for its values.",
      ],
    },
    config: CHART_CONFIG,
    data: { values },
    hconcat: [panel("tokens", "tokens returned per ask (log)"), ...(timed ? [panel("latency", "retrieve p50, ms (log)")] : [])],
    spacing: SPACING,
  } as unknown as TopLevelSpec;
}

/** Whole decades around the values, so that the axis starts and ends on a labelled tick. */
function logDomain(values: readonly number[]): [number, number] {
  const low = 10 ** Math.floor(Math.log10(Math.min(...values)));
  const high = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  return [low, high === low ? high * 10 : high];
}

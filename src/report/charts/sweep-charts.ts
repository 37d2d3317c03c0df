/**
 * The charts of a sweep: the score over two swept parameters with the others at the chosen
 * point's values, the point each fold chose, and each fold's optimism (training against held-out).
 */
import type { TopLevelSpec } from "vega-lite";
import type { SweepAnalysis } from "../../harness/sweep/analysis.js";
import { describeValues, formatValue } from "../../harness/experiment/sweep-points.js";
import { ABLATION_COLORS, BASELINE_COLOR, CHART_CONFIG } from "./theme.js";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
/** Wide enough for a backend's name under its column. */
const CELL = 64;
const ROW_STEP = 22;
const SCORE_WIDTH = 420;
/** The folds chart leaves room right of its bars for the chosen settings. */
const FOLD_BAR_WIDTH = 300;

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The two swept parameters with the most distinct values (the first listed on a tie): the one
 * with more values down the side, where its labels have room, the other across.
 */
function heatmapAxes(analysis: SweepAnalysis): { x: string; y?: string } | null {
  const { sweep } = analysis;
  const distinct = sweep.parameters.map((p) => ({ p, n: new Set(sweep.points.map((pt) => JSON.stringify(pt.values[p]))).size }));
  const ranked = distinct.filter((d) => d.n > 1).sort((a, b) => b.n - a.n);
  if (ranked.length === 0) return null;
  return ranked.length === 1 ? { x: ranked[0].p } : { x: ranked[1].p, y: ranked[0].p };
}

/** Whether the heatmap's cells differ in relevance backend: a comparison across backends, which the chart must say. */
function crossesBackends(axes: { x: string; y?: string }): boolean {
  return [axes.x, axes.y].some((p) => p?.split(".").at(-1) === "relevance");
}

/**
 * Each point's mean objective over every ask (a point fixed in advance is scored on asks its
 * choice did not see), over two parameters, the others held at the chosen point's values.
 */
export function sweepHeatmapChart(experiment: string, analysis: SweepAnalysis): TopLevelSpec | null {
  const axes = heatmapAxes(analysis);
  if (axes === null) return null;
  const { sweep, means } = analysis;
  const chosen = sweep.points.find((p) => p.id === sweep.selection.chosen)!;
  const fixed = sweep.parameters.filter((p) => p !== axes.x && p !== axes.y);
  const cells = sweep.points.filter((p) => fixed.every((f) => sameValue(p.values[f], chosen.values[f])));
  if (cells.length < 2) return null;
  const text = (path: string, value: unknown) => formatValue(path, value as never);
  const order = (path: string) => [...new Set(cells.map((c) => text(path, c.values[path])))];
  const values = cells.map((c) => ({
    x: text(axes.x, c.values[axes.x]),
    y: axes.y === undefined ? "" : text(axes.y, c.values[axes.y]),
    score: means.get(c.id)!,
    point: c.id,
    settings: describeValues(c.values),
    chosen: c.id === chosen.id ? "chosen" : "",
  }));
  const scores = values.map((v) => v.score);
  // Dark text on viridis's light (high) end, white on its dark end.
  const middle = (Math.min(...scores) + Math.max(...scores)) / 2;
  const heldAt = fixed.map((f) => `${f} ${text(f, chosen.values[f])}`).join(", ");
  const y = axes.y === undefined ? { value: 0 } : { field: "y", type: "ordinal", sort: order(axes.y), title: axes.y };
  return {
    $schema: SCHEMA,
    title: {
      text: `${experiment}: ${sweep.objective.metric} over ${axes.x}${axes.y === undefined ? "" : ` × ${axes.y}`}`,
      subtitle: [
        `Each point's mean over every ask${heldAt === "" ? "" : `, with ${heldAt} (the chosen point's)`}.`,
        "The outlined cell is the point chosen on every ask:",
        `${describeValues(chosen.values)}.`,
        ...(crossesBackends(axes) ? ["Cells of different relevance backends differ by the backend as much as by the other settings."] : []),
      ],
    },
    config: CHART_CONFIG,
    data: { values },
    width: { step: CELL },
    height: axes.y === undefined ? CELL : { step: CELL },
    encoding: {
      x: { field: "x", type: "ordinal", sort: order(axes.x), title: axes.x, axis: { labelAngle: 0 } },
      y,
    },
    layer: [
      {
        mark: { type: "rect" },
        encoding: {
          color: { field: "score", type: "quantitative", title: sweep.objective.metric, scale: { scheme: "viridis" }, legend: { gradientLength: 160 } },
          tooltip: [
            { field: "settings", type: "nominal" },
            { field: "point", type: "nominal" },
            { field: "score", type: "quantitative", format: ".3f" },
          ],
        },
      },
      {
        transform: [{ filter: "datum.chosen === 'chosen'" }],
        mark: { type: "rect", fill: null, stroke: BASELINE_COLOR, strokeWidth: 3 },
      },
      {
        mark: { type: "text", fontSize: 10 },
        encoding: {
          text: { field: "score", type: "quantitative", format: ".3f" },
          color: { condition: { test: `datum.score > ${middle}`, value: "#111" }, value: "#fff" },
        },
      },
    ],
  } as TopLevelSpec;
}

function foldRows(analysis: SweepAnalysis) {
  const settings = new Map(analysis.sweep.points.map((p) => [p.id, describeValues(p.values)]));
  return analysis.sweep.selection.folds.map((f, i) => ({
    fold: `fold ${i + 1}`,
    ...f,
    settings: settings.get(f.chosen) ?? f.chosen,
    heldOutText: f.heldOut.join(", "),
  }));
}

/** The settings each fold chose, and what they scored on the asks that fold held out. */
export function sweepFoldsChart(experiment: string, analysis: SweepAnalysis): TopLevelSpec | null {
  const rows = foldRows(analysis);
  if (rows.length === 0) return null;
  const points = [...new Set(rows.map((r) => r.settings))];
  return {
    $schema: SCHEMA,
    title: {
      text: `${experiment}: the settings each fold chose`,
      subtitle: [`Bars: the chosen settings' ${analysis.sweep.objective.metric} on the fold's held-out asks; colour and label name the settings.`],
    },
    config: CHART_CONFIG,
    data: { values: rows },
    width: FOLD_BAR_WIDTH,
    height: { step: ROW_STEP },
    encoding: { y: { field: "fold", type: "nominal", sort: rows.map((r) => r.fold), title: null } },
    layer: [
      {
        mark: { type: "bar", height: { band: 0.7 } },
        encoding: {
          x: { field: "heldOutScore", type: "quantitative", title: `held-out ${analysis.sweep.objective.metric}`, scale: { domain: [0, 1] }, axis: { tickCount: 5 } },
          // The label beside each bar names the settings; a legend would repeat it.
          color: { field: "settings", type: "nominal", legend: null, scale: { domain: points, range: points.map((_, i) => ABLATION_COLORS[i % ABLATION_COLORS.length]) } },
          tooltip: [
            { field: "fold", type: "nominal" },
            { field: "settings", type: "nominal", title: "chosen settings" },
            { field: "chosen", type: "nominal", title: "point" },
            { field: "heldOutText", type: "nominal", title: "held out" },
            { field: "heldOutScore", type: "quantitative", format: ".3f" },
          ],
        },
      },
      {
        mark: { type: "text", align: "left", dx: 4, fontSize: 10, color: "#333" },
        encoding: { x: { field: "heldOutScore", type: "quantitative" }, text: { field: "settings", type: "nominal" } },
      },
    ],
  } as TopLevelSpec;
}

/** Each fold's training score against its held-out score: the optimism of choosing on the data that scores. */
export function sweepOptimismChart(experiment: string, analysis: SweepAnalysis): TopLevelSpec | null {
  const rows = foldRows(analysis);
  if (rows.length === 0) return null;
  const pooled = { fold: "pooled", training: analysis.training, heldOutScore: analysis.heldOut.mean };
  const all = [...rows.map((r) => ({ fold: r.fold, training: r.training, heldOutScore: r.heldOutScore })), pooled];
  const values = all.flatMap((r) => [
    { fold: r.fold, score: r.training, side: "training", gap: r.training - r.heldOutScore },
    { fold: r.fold, score: r.heldOutScore, side: "held-out", gap: r.training - r.heldOutScore },
  ]);
  const order = all.map((r) => r.fold);
  return {
    $schema: SCHEMA,
    title: {
      text: `${experiment}: optimism per fold (training − held-out)`,
      subtitle: [`The chosen point's ${analysis.sweep.objective.metric} on the folds it was chosen on, and on the fold it was not.`],
    },
    config: CHART_CONFIG,
    data: { values },
    width: SCORE_WIDTH,
    height: { step: ROW_STEP },
    encoding: { y: { field: "fold", type: "nominal", sort: order, title: null } },
    layer: [
      {
        mark: { type: "rule", color: "#999" },
        encoding: { x: { aggregate: "min", field: "score", type: "quantitative" }, x2: { aggregate: "max", field: "score" } },
      },
      {
        mark: { type: "point", filled: true, size: 70 },
        encoding: {
          x: { field: "score", type: "quantitative", title: analysis.sweep.objective.metric, scale: { zero: false } },
          color: { field: "side", type: "nominal", title: null, scale: { domain: ["training", "held-out"], range: [BASELINE_COLOR, ABLATION_COLORS[1]] } },
          tooltip: [
            { field: "fold", type: "nominal" },
            { field: "side", type: "nominal" },
            { field: "score", type: "quantitative", format: ".3f" },
            { field: "gap", type: "quantitative", format: "+.3f", title: "optimism" },
          ],
        },
      },
    ],
  } as TopLevelSpec;
}

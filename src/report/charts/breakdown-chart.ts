import type { TopLevelSpec } from "vega-lite";
import type { ExperimentSummary, RankChange } from "../../harness/summary/types.js";
import { BASELINE_COLOR, CHART_CONFIG, MAX_CHART_HEIGHT } from "./theme.js";
import { byCodeUnit } from "../../shared/order.js";

/** Rows per ablation: the largest moves tell the story, and a 2-core box should not draw hundreds of bars. */
export const BREAKDOWN_ROWS_PER_ABLATION = 6;
/** A panel's height beyond its bars (title, axis, spacing), the height of one memory's two bars, and the chart's title. */
const PANEL_FRAME = 120;
const MEMORY_HEIGHT = 28;
const TITLE = 110;

/** As many rows per ablation as keep every panel within MAX_CHART_HEIGHT (at least one), up to BREAKDOWN_ROWS_PER_ABLATION. */
export function breakdownRowsPerAblation(panels: number): number {
  const panelRows = Math.max(1, Math.ceil(panels / COLUMNS));
  const fit = Math.floor(((MAX_CHART_HEIGHT - TITLE) / panelRows - PANEL_FRAME) / MEMORY_HEIGHT);
  return Math.max(1, Math.min(BREAKDOWN_ROWS_PER_ABLATION, fit));
}

const SIGNALS = ["rel", "rec", "imp"] as const;
/** Okabe and Ito's blue, orange and bluish green: three colours that stay apart for every common colour-vision deficiency. */
const SIGNAL_COLORS = ["#0072b2", "#e69f00", "#009e73"];
/** Two panels a row, each with its own labels, fill 1,000 px. */
const COLUMNS = 2;
const PANEL_WIDTH = 170;
const LABEL_LIMIT = 240;
/** Separates a label's lines in the data; the axis splits on it. */
const LINE_BREAK = " | ";

/** How far a gold memory moved; falling out of (or into) the ranking counts as the largest move. */
function moveSize(change: RankChange): number {
  if (change.baselineRank === null || change.ablationRank === null) return Number.POSITIVE_INFINITY;
  return Math.abs(change.ablationRank - change.baselineRank);
}

/** The rank changes the chart shows: per ablation, the largest moves, ties broken by scenario, ask and gold. */
export function breakdownRows(summary: ExperimentSummary): RankChange[] {
  const moved = summary.ablations.flatMap((ablation) => {
    // A system that ranks by something other than recollect's scores has no breakdown of its own to compare.
    if (!summary.rankChanges.some((c) => c.ablation === ablation && c.variant !== null)) return [];
    const rows = summary.rankChanges
      .filter((c) => c.ablation === ablation && (c.baseline !== null || c.variant !== null) && moveSize(c) > 0)
      .sort(
        (a, b) =>
          moveSize(b) - moveSize(a) ||
          byCodeUnit(a.scenario, b.scenario) ||
          byCodeUnit(a.ask, b.ask) ||
          byCodeUnit(a.gold, b.gold),
      );
    return rows.length === 0 ? [] : [rows];
  });
  const perAblation = breakdownRowsPerAblation(moved.length);
  return moved.flatMap((rows) => rows.slice(0, perAblation));
}

function contributionSum(s: { rel: number; rec: number; imp: number; weights: [number, number, number] }): number {
  return SIGNALS.reduce((sum, signal, i) => sum + s.weights[i] * s[signal], 0);
}

function rankText(rank: number | null): string {
  return rank === null ? "not ranked" : `rank ${rank}`;
}

/**
 * The three signals behind a gold memory's score under the baseline and under the ablation,
 * side by side, so a reader sees which signal moved it. Bars stack each signal's weighted
 * contribution (weight × signal), so an ablation that zeroes a weight shows that signal vanish;
 * the black tick is the total that ranked the memory.
 */
export function breakdownChart(summary: ExperimentSummary): TopLevelSpec | null {
  const rows = breakdownRows(summary);
  if (rows.length === 0) return null;
  // Ask ids are unique within a scenario; name the scenario only when there is more than one.
  const manyScenarios = new Set(rows.map((r) => r.scenario)).size > 1;
  const ablations = summary.ablations.filter((a) => rows.some((r) => r.ablation === a));
  const panels = ablations.map((ablation) => {
    const values: Record<string, string | number>[] = [];
    // Each panel has its own x axis, so one ablation's large scores cannot flatten the others' bars.
    const maxTotal = Math.max(
      0,
      ...rows
        .filter((r) => r.ablation === ablation)
        .flatMap((r) => [r.baseline, r.variant].flatMap((s) => (s ? [s.total, contributionSum(s)] : []))),
    );
    for (const change of rows.filter((r) => r.ablation === ablation)) {
      // Two label lines, the ask and then the gold memory, so that long names need no truncation.
      const memory = `${manyScenarios ? `${change.scenario}/` : ""}${change.ask}${LINE_BREAK}${change.gold}`;
      const versions = [
        { version: summary.baseline, rank: change.baselineRank, scores: change.baseline },
        { version: ablation, rank: change.ablationRank, scores: change.variant },
      ];
      for (const { version, rank, scores } of versions) {
        if (scores === null) continue;
        for (const [signalOrder, signal] of SIGNALS.entries()) {
          values.push({
            memory,
            version,
            rank: rankText(rank),
            signal,
            signalOrder,
            value: scores.weights[signalOrder] * scores[signal],
            total: scores.total,
            movedBy: change.movedBy,
          });
        }
      }
    }
    const memories = [...new Set(values.map((v) => String(v.memory)))];
    const y = {
      field: "memory",
      type: "nominal",
      sort: memories,
      title: null,
      axis: { labelLimit: LABEL_LIMIT, labelExpr: `split(datum.label, ${JSON.stringify(LINE_BREAK)})` },
    } as const;
    const yOffset = { field: "version", type: "nominal", sort: [summary.baseline, ablation] } as const;
    const tooltip = [
      { field: "memory", type: "nominal", title: "ask | gold" },
      { field: "version", type: "nominal", title: "run" },
      { field: "rank", type: "nominal" },
      { field: "signal", type: "nominal" },
      { field: "value", type: "quantitative", format: ".3f" },
      { field: "total", type: "quantitative", format: ".3f", title: "total score" },
      { field: "movedBy", type: "nominal", title: "moved by" },
    ];
    return {
      title: { text: `${summary.baseline} (upper bar) vs ${ablation} (lower bar)`, fontSize: 12, anchor: "start" },
      data: { values },
      width: PANEL_WIDTH,
      height: { step: 14 },
      encoding: { y, yOffset },
      layer: [
        {
          mark: { type: "bar", height: { band: 0.9 } },
          encoding: {
            x: {
              field: "value",
              type: "quantitative",
              stack: "zero",
              // Room right of the longest bar for its rank label.
              scale: { domain: [0, maxTotal * 1.35], nice: false },
              axis: { tickCount: 4 },
              title: "weighted contribution",
            },
            color: {
              field: "signal",
              type: "nominal",
              scale: { domain: [...SIGNALS], range: SIGNAL_COLORS },
              title: "signal",
            },
            order: { field: "signalOrder", type: "quantitative" },
            tooltip,
          },
        },
        {
          transform: [{ filter: "datum.signal === 'rel'" }],
          mark: { type: "tick", color: BASELINE_COLOR, thickness: 2, bandSize: 12 },
          encoding: { x: { field: "total", type: "quantitative" } },
        },
        {
          transform: [{ filter: "datum.signal === 'rel'" }],
          mark: { type: "text", align: "left", dx: 4, fontSize: 10, color: "#333" },
          encoding: {
            x: { field: "total", type: "quantitative" },
            text: { field: "rank", type: "nominal" },
          },
        },
      ],
    };
  });
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${summary.experiment}: score breakdown of the gold memories that moved most`,
      subtitle: [
        "Stacked weighted contributions (weight × relevance, recency, importance); the black tick is the total that ranked it.",
        "Each panel has its own x axis: compare bar lengths within a panel, and read the axis before comparing panels.",
      ],
    },
    config: CHART_CONFIG,
    concat: panels,
    columns: COLUMNS,
    spacing: { column: 20, row: 18 },
    resolve: { scale: { y: "independent", yOffset: "independent", x: "independent", color: "shared" } },
  } as TopLevelSpec;
}

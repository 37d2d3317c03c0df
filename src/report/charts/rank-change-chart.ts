import type { TopLevelSpec } from "vega-lite";
import type { ExperimentSummary, RankChange } from "../../harness/summary/types.js";
import { namedPanels } from "./text-measure.js";
import { panelHeight } from "./panel-width.js";
import { CHART_CONFIG, HEADER_FONT_SIZE, ablationColor } from "./theme.js";

/** Four panels a row, each square, fill 1,000 px with their axes. */
const COLUMNS = 4;
/** Square panels as large as fit within MAX_CHART_HEIGHT; a row's frame is its header, rotated axis labels and axis title. */
const SIZES = { min: 110, max: 180, rowFrame: 95, title: 150 };

/** Up to this rank the axis shows every rank; beyond it a log scale keeps the top ranks apart. */
const LINEAR_MAX_RANK = 20;

function logTicks(max: number): number[] {
  const ticks: number[] = [];
  for (let decade = 1; decade <= max; decade *= 10) {
    for (const step of [1, 2, 5]) if (decade * step <= max) ticks.push(decade * step);
  }
  return ticks;
}

/** Room a rank label needs along its axis (an 11 px label, upright or rotated, with a gap). */
const TICK_SPACE = 14;

/** Every tick when they fit the panel, else every second or third (the first and "not ranked" always). */
function thinned(ticks: number[], size: number): number[] {
  const step = Math.ceil((TICK_SPACE * ticks.length) / size);
  const last = ticks.length - 1;
  return step <= 1 ? ticks : ticks.filter((_, i) => i === last || (i % step === 0 && last - i >= step));
}

interface Point {
  kind: "point" | "diagonal";
  ablation: string;
  baselineRank: number;
  ablationRank: number;
  /** Ranks as a reader should see them in a tooltip ("not ranked" rather than the stand-in position). */
  baselineText: string;
  ablationText: string;
  count: number;
  examples: string;
}

/**
 * Baseline rank against ablation rank, one panel per ablation. Memories that fell out of the
 * ranking are drawn at a "not ranked" position past the largest rank rather than dropped, since
 * those are often the moves a reader cares about.
 */
export function rankChangeChart(summary: ExperimentSummary): TopLevelSpec | null {
  const changes = summary.rankChanges.filter((c) => c.baselineRank !== null || c.ablationRank !== null);
  if (changes.length === 0) return null;
  const maxRank = Math.max(
    1,
    ...changes.flatMap((c) => [c.baselineRank ?? 0, c.ablationRank ?? 0]),
  );
  const useLog = maxRank > LINEAR_MAX_RANK;
  const notRanked = useLog ? 10 ** Math.ceil(Math.log10(maxRank + 1) + 0.3) : maxRank + 1;
  const rankOf = (r: number | null) => r ?? notRanked;

  const groups = new Map<string, { change: RankChange; examples: string[] }>();
  for (const c of changes) {
    const key = `${c.ablation}\u0000${rankOf(c.baselineRank)}\u0000${rankOf(c.ablationRank)}`;
    const group = groups.get(key) ?? { change: c, examples: [] };
    group.examples.push(`${c.ask}/${c.gold}`);
    groups.set(key, group);
  }
  const ablations = summary.ablations.filter((a) => changes.some((c) => c.ablation === a));
  const values: Point[] = [...groups.values()].map(({ change, examples }) => ({
    kind: "point",
    ablation: change.ablation,
    baselineRank: rankOf(change.baselineRank),
    ablationRank: rankOf(change.ablationRank),
    baselineText: String(change.baselineRank ?? "not ranked"),
    ablationText: String(change.ablationRank ?? "not ranked"),
    count: examples.length,
    examples: examples.slice(0, 4).join(", ") + (examples.length > 4 ? ", …" : ""),
  }));
  for (const ablation of ablations) {
    for (const r of [1, notRanked]) {
      values.push({ kind: "diagonal", ablation, baselineRank: r, ablationRank: r, baselineText: "", ablationText: "", count: 0, examples: "" });
    }
  }

  const maxCount = Math.max(...values.map((v) => v.count));
  // Integer legend entries only: a count of 1.5 memories means nothing.
  const sizeLegend = [...new Set([1, Math.ceil(maxCount / 2), maxCount])];
  const size = panelHeight({ panels: ablations.length, columns: COLUMNS, ...SIZES });
  const ticks = thinned(useLog ? [...logTicks(maxRank), notRanked] : Array.from({ length: notRanked }, (_, i) => i + 1), size);
  const scale = useLog ? { type: "log" as const, domain: [0.8, notRanked * 1.25] } : { domain: [0.5, notRanked + 0.5] };
  const labelExpr = `datum.value == ${notRanked} ? 'not ranked' : datum.label`;
  const axis = { values: ticks, labelExpr, grid: true, format: "d" };
  // Rotated so that every rank and "not ranked" keep their label instead of being thinned out;
  // upright past nine ticks, where slanted labels would run into their neighbours.
  const xAxis = { ...axis, labelAngle: ticks.length > 9 ? -90 : -40, labelOverlap: false };
  const color = ablationColor(summary.ablations, summary.baseline);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${summary.experiment}: gold memory ranks, baseline vs ablation`,
      subtitle: `Median over seeds; below the dashed line the ablation ranks a gold memory higher (better) than ${summary.baseline}`,
    },
    config: CHART_CONFIG,
    data: { values },
    facet: namedPanels("ablation", ablations, size, HEADER_FONT_SIZE),
    columns: COLUMNS,
    spacing: { column: 14, row: 12 },
    spec: {
      width: size,
      height: size,
      encoding: {
        x: { field: "baselineRank", type: "quantitative", scale, axis: xAxis, title: `rank under ${summary.baseline}` },
        y: { field: "ablationRank", type: "quantitative", scale, axis, title: "rank under ablation" },
      },
      layer: [
        {
          transform: [{ filter: "datum.kind === 'diagonal'" }],
          mark: { type: "line", strokeDash: [4, 4], color: "#888", strokeWidth: 1 },
        },
        {
          transform: [{ filter: "datum.kind === 'point'" }],
          mark: { type: "circle", opacity: 0.85, stroke: "white", strokeWidth: 0.5 },
          encoding: {
            color: { field: "ablation", type: "nominal", scale: color, legend: null },
            size: {
              field: "count",
              type: "quantitative",
              title: "gold memories",
              scale: { domain: [0, maxCount], range: [0, 400] },
              legend: { values: sizeLegend, format: "d" },
            },
            tooltip: [
              { field: "ablation", type: "nominal" },
              { field: "baselineText", type: "nominal", title: "baseline rank" },
              { field: "ablationText", type: "nominal", title: "ablation rank" },
              { field: "count", type: "quantitative", title: "gold memories" },
              { field: "examples", type: "nominal", title: "ask/gold" },
            ],
          },
        },
      ],
    },
  } as TopLevelSpec;
}

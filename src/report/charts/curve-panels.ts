import { namedPanels } from "./text-measure.js";
import { panelHeight } from "./panel-width.js";
import { BASELINE_COLOR, HEADER_FONT_SIZE, ablationColor } from "./theme.js";

/** Four small panels a row fill 1,000 px. */
export const CURVE_COLUMNS = 4;
const PANEL_WIDTH = 180;
/** Rows of panels fit MAX_CHART_HEIGHT; a row's frame is its header, its x axis with slanted labels, and spacing. */
const HEIGHTS = { min: 50, max: 110, rowFrame: 95, title: 80 };

/** One point of one ablation's curve, with its 95% interval. */
export interface CurvePoint {
  ablation: string;
  x: number | string;
  mean: number;
  lo: number;
  hi: number;
  /** Asks the point is over. */
  asks: number;
}

/**
 * One small panel per ablation, its curve and interval band in its colour over the baseline's
 * in near-black, so that no curve hides another however many ablations there are.
 */
export function curvePanels(points: readonly CurvePoint[], ablations: readonly string[], baseline: string, x: Record<string, unknown>, yTitle: string): object | null {
  const others = ablations.filter((a) => a !== baseline && points.some((p) => p.ablation === a));
  const reference = points.filter((p) => p.ablation === baseline);
  if (others.length === 0 || reference.length === 0) return null;
  const values = others.flatMap((panel) => [
    ...reference.map((p) => ({ panel, series: baseline, ...p })),
    ...points.filter((p) => p.ablation === panel).map((p) => ({ panel, series: panel, ...p })),
  ]);
  const color = ablationColor(ablations, baseline);
  const isBaseline = `datum.series === ${JSON.stringify(baseline)}`;
  const y = { type: "quantitative", title: yTitle, scale: { domain: [0, 1] }, axis: { values: [0, 0.5, 1] } } as const;
  const colour = { field: "series", type: "nominal", scale: color, legend: null } as const;
  const tooltip = [
    { field: "series", type: "nominal", title: "ablation" },
    { field: "x", type: "nominal", title: "at" },
    { field: "mean", type: "quantitative", format: ".3f" },
    { field: "lo", type: "quantitative", format: ".3f", title: "95% lo" },
    { field: "hi", type: "quantitative", format: ".3f", title: "95% hi" },
    { field: "asks", type: "quantitative" },
  ];
  return {
    data: { values },
    facet: namedPanels("panel", others, PANEL_WIDTH, HEADER_FONT_SIZE),
    columns: CURVE_COLUMNS,
    spacing: { column: 12, row: 10 },
    spec: {
      width: PANEL_WIDTH,
      height: panelHeight({ panels: others.length, columns: CURVE_COLUMNS, ...HEIGHTS }),
      encoding: { x },
      layer: [
        { transform: [{ filter: isBaseline }], mark: { type: "area", opacity: 0.12, color: BASELINE_COLOR }, encoding: { y: { field: "lo", ...y }, y2: { field: "hi" } } },
        { transform: [{ filter: `!(${isBaseline})` }], mark: { type: "area", opacity: 0.25 }, encoding: { y: { field: "lo", ...y }, y2: { field: "hi" }, color: colour } },
        { transform: [{ filter: isBaseline }], mark: { type: "line", color: BASELINE_COLOR, strokeWidth: 1.5, point: { filled: true, size: 18, color: BASELINE_COLOR } }, encoding: { y: { field: "mean", ...y }, tooltip } },
        {
          transform: [{ filter: `!(${isBaseline})` }],
          mark: { type: "line", strokeWidth: 2.5, point: { filled: true, size: 30 } },
          encoding: {
            y: { field: "mean", ...y },
            color: colour,
            tooltip,
          },
        },
      ],
    },
    resolve: { axis: { x: "independent", y: "independent" } },
  };
}

import type { Config } from "vega-lite";
import { FONT_FAMILY } from "./fonts.js";

/** Panel headers of faceted charts; long names wrap to their panel's width at this size. */
export const HEADER_FONT_SIZE = 12;

/** Shared look of every chart: one font for all text, white background, readable sizes, legends on top. */
export const CHART_CONFIG: Config = {
  font: FONT_FAMILY,
  background: "white",
  padding: 8,
  title: { fontSize: 15, subtitleFontSize: 11, subtitleColor: "#444", anchor: "start", offset: 10 },
  axis: { labelFontSize: 11, titleFontSize: 11, titlePadding: 6, labelLimit: 220 },
  legend: { labelFontSize: 11, titleFontSize: 11, labelLimit: 220, orient: "top", direction: "horizontal" },
  header: { labelFontSize: HEADER_FONT_SIZE, titleFontSize: HEADER_FONT_SIZE, labelFontWeight: "bold" },
  view: { stroke: "#ddd" },
};

/**
 * The widest a chart's SVG may be. PNGs are drawn at twice the SVG size, so a PNG is at most
 * 2,000 px wide, and shown at 1,000 px its text keeps the size it has in the SVG.
 */
export const MAX_CHART_WIDTH = 1000;

/** The tallest a chart's SVG may be: its PNG is then at most 2,400 px tall. */
export const MAX_CHART_HEIGHT = 1200;

/** The baseline's colour in every chart: a neutral that no ablation has. */
export const BASELINE_COLOR = "#252525";

/**
 * Tableau 10 (Tableau's 2016 palette, designed to stay apart under the common colour-vision
 * deficiencies), in its published order. The ablations take them in report order.
 */
export const ABLATION_COLORS = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
] as const;

/**
 * Ablation colours keyed by name in report order, so one ablation has one colour in every chart.
 * From the eleventh ablation on, colours repeat; every chart also names the ablation in text.
 */
export function ablationColor(ablations: readonly string[], baseline: string): { domain: string[]; range: string[] } {
  let next = 0;
  const range = ablations.map((a) => (a === baseline ? BASELINE_COLOR : ABLATION_COLORS[next++ % ABLATION_COLORS.length]!));
  return { domain: [...ablations], range };
}

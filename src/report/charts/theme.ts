import type { Config } from "vega-lite";
import { FONT_FAMILY } from "./fonts.js";

/** Shared look of every chart: one font for all text, white background, readable sizes. */
export const CHART_CONFIG: Config = {
  font: FONT_FAMILY,
  background: "white",
  padding: 8,
  title: { fontSize: 15, subtitleFontSize: 12, subtitleColor: "#444", anchor: "start", offset: 10 },
  axis: { labelFontSize: 11, titleFontSize: 12, titlePadding: 8, labelLimit: 220 },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 220 },
  header: { labelFontSize: 12, titleFontSize: 12 },
  view: { stroke: "#ddd" },
};

/** Ablation colours keyed by name in report order, so one ablation has one colour in every chart. */
export function ablationColor(ablations: readonly string[]): { domain: string[]; scheme: string } {
  // Ten colours repeat from the eleventh ablation on; twenty keep every ablation distinct.
  return { domain: [...ablations], scheme: ablations.length <= 10 ? "tableau10" : "category20" };
}

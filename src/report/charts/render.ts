import { Resvg } from "@resvg/resvg-js";
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import type { ChartCache } from "./chart-cache.js";
import { FONT_FAMILY, fontFiles } from "./fonts.js";
import { withFontMeasurement } from "./text-measure.js";

export interface RenderedChart {
  svg: string;
  png: Buffer;
  /** Warnings from Vega-Lite or Vega; a clean spec has none, and the tests hold every chart to that. */
  warnings: string[];
}

/** PNGs are drawn at twice the SVG size so that 11px labels stay legible. */
const PNG_ZOOM = 2;

function collectingLogger(warnings: string[]): vega.LoggerInterface {
  return vega.logger(vega.Warn, undefined, (_method, _level, args) => {
    warnings.push(args.map((a) => String(a)).join(" "));
  });
}

/** Vega-Lite → Vega → SVG without a canvas; text widths come from Vega's estimate, the same on any machine. */
export async function renderSvg(spec: TopLevelSpec, warnings: string[] = []): Promise<string> {
  const logger = collectingLogger(warnings);
  const vgSpec = compile(spec, { logger }).spec;
  // Clip-path and gradient ids come from a module-level counter; reset it so a re-run gives the same bytes.
  vega.resetSVGDefIds();
  const view = new vega.View(vega.parse(vgSpec), { renderer: "none", logger });
  try {
    return await withFontMeasurement(() => view.toSVG());
  } finally {
    view.finalize();
  }
}

export function svgToPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    background: "white",
    fitTo: { mode: "zoom", value: PNG_ZOOM },
    font: { fontFiles: fontFiles(), loadSystemFonts: false, defaultFontFamily: FONT_FAMILY },
  });
  return resvg.render().asPng();
}

/** Renders `spec` to SVG and PNG; through `cache`, a chart rendered before from the same spec and code is read instead. */
export async function renderChart(spec: TopLevelSpec, cache?: ChartCache): Promise<RenderedChart> {
  const key = cache?.key(spec);
  const cached = key === undefined ? undefined : cache!.get(key);
  if (cached !== undefined) return cached;
  const warnings: string[] = [];
  const svg = await renderSvg(spec, warnings);
  const chart = { svg, png: svgToPng(svg), warnings };
  if (key !== undefined) cache!.put(key, chart);
  return chart;
}

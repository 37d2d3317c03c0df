import { renderAsync } from "@resvg/resvg-js";
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

/** The PNG of `svg`, drawn on resvg's own threads, so this thread can make the next chart's SVG meanwhile. */
async function svgToPng(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, {
    background: "white",
    fitTo: { mode: "zoom", value: PNG_ZOOM },
    font: { fontFiles: fontFiles(), loadSystemFonts: false, defaultFontFamily: FONT_FAMILY },
  });
  return image.asPng();
}

/** Renders `spec` to SVG and PNG; through `cache`, a chart rendered before from the same spec and code is read instead. */
export async function renderChart(spec: TopLevelSpec, cache?: ChartCache): Promise<RenderedChart> {
  return (await renderCharts([spec], cache))[0]!;
}

/**
 * Renders each spec as renderChart does, in order. The SVGs are made one after another (Vega
 * numbers their clip paths and gradients from a counter of its own), and each PNG is drawn while
 * the next SVG is made: with the reports' statistics done, the other core is free for it.
 */
export async function renderCharts(specs: readonly TopLevelSpec[], cache?: ChartCache): Promise<RenderedChart[]> {
  const charts: Promise<RenderedChart>[] = [];
  for (const spec of specs) {
    const key = cache?.key(spec);
    const cached = key === undefined ? undefined : cache!.get(key);
    if (cached !== undefined) {
      charts.push(Promise.resolve(cached));
      continue;
    }
    const warnings: string[] = [];
    const svg = await renderSvg(spec, warnings);
    const chart = svgToPng(svg).then((png) => {
      const rendered = { svg, png, warnings };
      if (key !== undefined) cache!.put(key, rendered);
      return rendered;
    });
    // A failed drawing is reported where the charts are awaited, not as an unhandled rejection meanwhile.
    chart.catch(() => undefined);
    charts.push(chart);
  }
  return Promise.all(charts);
}

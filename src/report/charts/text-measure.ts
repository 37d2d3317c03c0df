import * as vega from "vega";
import { FontMetrics } from "./font-metrics.js";
import { fontFiles } from "./fonts.js";

interface TextItem {
  fontSize?: number | string;
  fontWeight?: number | string;
}

type WidthFunction = (item: TextItem, text: unknown) => number;

/** Vega exports its text measurer at run time; the typings leave it out. */
const textMetrics = (vega as unknown as { textMetrics: { width: WidthFunction } }).textMetrics;

let fonts: { regular: FontMetrics; bold: FontMetrics } | undefined;

function loadFonts(): { regular: FontMetrics; bold: FontMetrics } {
  if (fonts === undefined) {
    const [regular, bold] = fontFiles();
    fonts = { regular: FontMetrics.fromFile(regular!), bold: FontMetrics.fromFile(bold!) };
  }
  return fonts;
}

function isBold(weight: TextItem["fontWeight"]): boolean {
  return weight === "bold" || weight === "bolder" || (typeof weight === "number" && weight >= 600) || Number(weight) >= 600;
}

/**
 * Text width as the PNG will show it, for Vega's layout. Truncation to a label limit stays
 * Vega's own: it calls back here with each candidate prefix.
 */
export const measureTextWidth: WidthFunction = (item, text) => {
  const value = text == null ? "" : String(text).trim();
  const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
  if (value === "" || size <= 0) return 0;
  const { regular, bold } = loadFonts();
  return (isBold(item.fontWeight) ? bold : regular).width(value, size);
};

/** Runs `render` with Vega measuring text in the chart font, then puts the previous measurer back. */
export async function withFontMeasurement<T>(render: () => Promise<T>): Promise<T> {
  const previous = textMetrics.width;
  textMetrics.width = measureTextWidth;
  try {
    return await render();
  } finally {
    textMetrics.width = previous;
  }
}

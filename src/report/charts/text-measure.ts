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

/**
 * Breaks a name into lines no wider than `maxWidth`, after hyphens, underscores, dots or spaces,
 * so that a long ablation name stays whole above a narrow panel instead of widening the grid.
 * A single piece wider than the limit keeps a line of its own.
 */
export function wrapName(text: string, fontSize: number, maxWidth: number, fontWeight: TextItem["fontWeight"] = "bold"): string[] {
  const pieces = text.match(/[^-_.\s]+[-_.\s]*/g) ?? [text];
  const lines: string[] = [];
  let line = "";
  for (const piece of pieces) {
    const candidate = line + piece;
    if (line !== "" && measureTextWidth({ fontSize, fontWeight }, candidate) > maxWidth) {
      lines.push(line.trimEnd());
      line = piece;
    } else line = candidate;
  }
  if (line !== "") lines.push(line.trimEnd());
  return lines;
}

/** A Vega expression that turns each name into its wrapped lines, for a header's or axis's labelExpr. */
function wrappedLabelExpr(names: readonly string[], fontSize: number, maxWidth: number): string {
  const lines = Object.fromEntries(names.map((name) => [name, wrapName(name, fontSize, maxWidth)]));
  // Vega-Lite pastes its own expression in place of datum.label, without parentheses.
  return `${JSON.stringify(lines)}[(datum.label)] || (datum.label)`;
}

/**
 * A facet with one panel per name, in the given order, under headers that wrap to the panel's
 * width: a name wider than its panel would otherwise widen the whole grid past the page.
 */
export function namedPanels(field: string, names: readonly string[], panelWidth: number, fontSize: number) {
  return {
    field,
    type: "nominal",
    sort: [...names],
    title: null,
    header: { labelExpr: wrappedLabelExpr(names, fontSize, panelWidth) },
  } as const;
}

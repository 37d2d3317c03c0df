import { measureTextWidth } from "./text-measure.js";
import { CHART_CONFIG, MAX_CHART_HEIGHT, MAX_CHART_WIDTH } from "./theme.js";

/** Padding, axis ticks, label padding and the axis domain around the panels, in pixels, with room to spare. */
const FRAME = 60;
/** Each panel's own x axis: its end labels overhang the panel by up to half their width. */
const AXIS_OVERHANG = 12;
export const COLUMN_SPACING = 16;

export interface PanelGrid {
  /** Row labels, drawn once left of the first column. */
  labels: readonly string[];
  columns: number;
  min: number;
  max: number;
  /** Room each panel needs right of it (e.g. for text beside its rows). */
  beside?: number;
  /** The axis's label limit, when the chart sets its own. */
  labelLimit?: number;
}

/** The widest panels that keep a grid of panels, with its row labels, within MAX_CHART_WIDTH. */
export function panelWidth(grid: PanelGrid): number {
  const axisFont = CHART_CONFIG.axis?.labelFontSize as number;
  const labelLimit = grid.labelLimit ?? (CHART_CONFIG.axis?.labelLimit as number);
  const labelWidth = Math.min(labelLimit, Math.max(0, ...grid.labels.map((l) => measureTextWidth({ fontSize: axisFont }, l))));
  const free = MAX_CHART_WIDTH - FRAME - labelWidth - grid.columns * (grid.beside ?? 0) - (grid.columns - 1) * AXIS_OVERHANG - (grid.columns - 1) * COLUMN_SPACING;
  return Math.max(grid.min, Math.min(grid.max, Math.floor(free / grid.columns)));
}

/** A facet of row panels (one row per ablation, a shared y), wrapped at `columns`, each `width` wide. */
export function rowPanels(facet: object, columns: number, width: number, rowStep: number, layer: object[]) {
  return {
    facet,
    columns,
    spacing: { column: COLUMN_SPACING, row: 14 },
    spec: { width, height: { step: rowStep }, layer },
  };
}

export interface PanelStack {
  panels: number;
  columns: number;
  min: number;
  max: number;
  /** A row's height beyond its panel (header, axis, spacing), and the height of the chart's title. */
  rowFrame: number;
  title: number;
}

/** The tallest panels that keep rows of them, wrapped at `columns`, within MAX_CHART_HEIGHT (at least `min`). */
export function panelHeight(stack: PanelStack): number {
  const rows = Math.max(1, Math.ceil(stack.panels / stack.columns));
  return Math.max(stack.min, Math.min(stack.max, Math.floor((MAX_CHART_HEIGHT - stack.title) / rows) - stack.rowFrame));
}

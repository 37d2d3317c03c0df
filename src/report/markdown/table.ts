/**
 * GitHub-flavoured markdown tables, padded so the source reads as a table too. The output is a
 * pure function of the input: no locale, no trailing spaces, numbers with a fixed number of
 * decimals.
 */
import { LINE_BREAKS } from "../../memory/index.js";

export type Align = "left" | "right" | "center";

export interface Column {
  header: string;
  align?: Align;
}

/** A number is formatted with the table's decimals; null renders as an em dash. */
export type Cell = string | number | null;

export interface TableOptions {
  /** Decimals for number cells (default 3). */
  decimals?: number;
}

export const EMPTY_CELL = "\u2014";

export function markdownTable(
  columns: readonly (string | Column)[],
  rows: readonly (readonly Cell[])[],
  options: TableOptions = {},
): string {
  const decimals = options.decimals ?? 3;
  const cols: Required<Column>[] = columns.map((c) =>
    typeof c === "string" ? { header: c, align: "left" } : { header: c.header, align: c.align ?? "left" },
  );
  if (cols.length === 0) throw new Error("markdownTable: a table needs at least one column");
  const text = rows.map((row, r) => {
    if (row.length !== cols.length) {
      throw new Error(`markdownTable: row ${r} has ${row.length} cells, but the table has ${cols.length} columns`);
    }
    return row.map((cell) => escapeCell(cellText(cell, decimals)));
  });
  const headers = cols.map((c) => escapeCell(c.header));
  // GitHub needs at least three dashes in a separator cell.
  const widths = cols.map((_, c) => Math.max(3, width(headers[c]), ...text.map((row) => width(row[c]))));

  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, c) => pad(cell, widths[c], cols[c].align)).join(" | ")} |`;
  const separator = `| ${cols.map((c, i) => rule(widths[i], c.align)).join(" | ")} |`;
  return [line(headers), separator, ...text.map(line)].join("\n");
}

/** Fixed decimals, a true minus sign, and no "−0.000". */
export function formatNumber(value: number, decimals = 3): string {
  if (!Number.isFinite(value)) throw new Error(`formatNumber: ${value} is not a finite number`);
  const fixed = Math.abs(value).toFixed(decimals);
  const isZero = Number(fixed) === 0;
  return value < 0 && !isZero ? `\u2212${fixed}` : fixed;
}

function cellText(cell: Cell, decimals: number): string {
  if (cell === null) return EMPTY_CELL;
  if (typeof cell === "number") return formatNumber(cell, decimals);
  return cell;
}

/**
 * A cell stays one cell whatever it holds: line breaks become spaces, and a pipe not already
 * escaped (one after an even run of backslashes, as in a code span) is escaped. User text in a
 * cell has been through escapeMarkdown or code (escape.ts) before it gets here.
 */
function escapeCell(text: string): string {
  return text
    .replace(LINE_BREAK, " ")
    .replace(/(\\*)\|/g, (match, slashes: string) => (slashes.length % 2 === 0 ? `${slashes}\\|` : match))
    .trim();
}

const LINE_BREAK = new RegExp(`\\r\\n|[${LINE_BREAKS}]`, "g");

/** Display width in code points; good enough for the symbols used in reports (−, ✓, —). */
function width(text: string): number {
  return [...text].length;
}

function pad(text: string, size: number, align: Align): string {
  const gap = size - width(text);
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") {
    const left = Math.floor(gap / 2);
    return " ".repeat(left) + text + " ".repeat(gap - left);
  }
  return text + " ".repeat(gap);
}

function rule(size: number, align: Align): string {
  if (align === "right") return `${"-".repeat(size - 1)}:`;
  if (align === "center") return `:${"-".repeat(size - 2)}:`;
  return "-".repeat(size);
}

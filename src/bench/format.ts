/** A small markdown table formatter for the benchmark report. */

export type Cell = string | number | null;

/** Numbers get a precision that suits their size; null prints as "–". */
export function formatCell(cell: Cell): string {
  if (cell === null) return "–";
  if (typeof cell === "string") return cell;
  if (!Number.isFinite(cell)) return String(cell);
  const abs = Math.abs(cell);
  if (Number.isInteger(cell) || abs >= 100) return Math.round(cell).toLocaleString("en-US");
  if (abs >= 10) return cell.toFixed(1);
  if (abs >= 1) return cell.toFixed(2);
  return cell.toFixed(3);
}

/** A GitHub-style table; numeric columns are right-aligned. */
export function markdownTable(headers: readonly string[], rows: readonly Cell[][]): string {
  const text = rows.map((row) => headers.map((_, c) => formatCell(row[c] ?? null)));
  const numeric = headers.map((_, c) => rows.length > 0 && rows.every((row) => typeof row[c] === "number" || row[c] === null));
  const widths = headers.map((h, c) => Math.max(3, h.length, ...text.map((row) => row[c].length)));
  const pad = (s: string, c: number) => (numeric[c] ? s.padStart(widths[c]) : s.padEnd(widths[c]));
  const line = (cells: string[]) => `| ${cells.map(pad).join(" | ")} |`;
  const rule = `| ${widths.map((w, c) => (numeric[c] ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line([...headers]), rule, ...text.map(line)].join("\n");
}

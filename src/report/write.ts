import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { writeFileAtomicSync } from "../shared/atomic-write.js";
import { byCodeUnit } from "../shared/order.js";
import type { RenderedReports } from "./reporter.js";

/*
 * Comparing rendered reports with the files on disk, and writing them. Kept apart from the
 * rendering, which loads Vega and the chart fonts, so that a command can load this at once.
 */

function sameContent(file: string, content: string | Buffer): boolean {
  if (!existsSync(file)) return false;
  return readFileSync(file).equals(typeof content === "string" ? Buffer.from(content) : content);
}

function filesUnder(root: string, folder: string): string[] {
  const dir = join(root, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    // Relative to the root however it is spelt ("." or an absolute path).
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort(byCodeUnit);
}

/** Report files whose content on disk differs from what the results give now. */
export function staleReports(rendered: RenderedReports, root: string): string[] {
  return rendered.files.filter((f) => !sameContent(join(root, f.path), f.content)).map((f) => f.path);
}

/** Files in a generated folder that the current results no longer produce. */
export function orphanReports(rendered: RenderedReports, root: string): string[] {
  const produced = new Set(rendered.files.map((f) => f.path));
  return rendered.owned.flatMap((folder) => filesUnder(root, folder)).filter((path) => !produced.has(path));
}

/** Writes the files that changed, each atomically, and removes orphans; returns both lists. */
export function writeReports(rendered: RenderedReports, root: string): { written: string[]; removed: string[] } {
  const written = staleReports(rendered, root);
  for (const f of rendered.files) if (written.includes(f.path)) writeFileAtomicSync(join(root, f.path), f.content);
  const removed = orphanReports(rendered, root);
  for (const path of removed) rmSync(join(root, path));
  return { written, removed };
}

/** One line saying what writeReports did. */
export function describeWrite({ written, removed }: { written: string[]; removed: string[] }): string {
  if (written.length === 0 && removed.length === 0) return "reports: up to date";
  const parts = [
    written.length > 0 ? `wrote ${written.join(", ")}` : "",
    removed.length > 0 ? `removed ${removed.join(", ")}` : "",
  ];
  return `reports: ${parts.filter((p) => p !== "").join("; ")}`;
}

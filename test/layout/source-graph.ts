/**
 * The import graph of src/, read with the TypeScript compiler's own pre-processor (static, type-only
 * and dynamic imports alike), for the tests of the tree's layout.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const SRC = join(ROOT, "src");

/** Every file under `dir` whose name passes `keep`, relative to the repository root, sorted. */
export function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

const isSource = (name: string) => /\.(ts|mjs)$/.test(name) && !name.endsWith(".d.ts");

/** The source files of src/ (TypeScript and the .mjs worker entries), relative to the root. */
export function sourceFiles(): string[] {
  return filesUnder("src", isSource);
}

/** The src files that `file` imports, relative to the root; packages and JSON are left out. */
export function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
  return importedFiles
    .map((ref) => ref.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => {
      const target = resolve(dirname(join(ROOT, file)), specifier);
      // Sources import each other by their emitted name: x.js stands for x.ts.
      const ts = target.replace(/\.js$/, ".ts");
      return existsSync(ts) ? ts : target;
    })
    .filter((target) => isSource(target))
    .map((target) => relative(ROOT, target).split("\\").join("/"));
}

/** The whole graph: each source file and the source files it imports. */
export function importGraph(): Map<string, string[]> {
  return new Map(sourceFiles().map((file) => [file, importsOf(file)]));
}

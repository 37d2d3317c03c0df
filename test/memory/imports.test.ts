/** memory/ is a library below the harness: it must not import harness/ or report/. */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const memoryDir = join(root, "memory");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

const SPECIFIER = /(?:import|export)[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)/g;

describe("src/memory imports", () => {
  it("never reach into harness/, report/ or cli/", () => {
    const offenders: string[] = [];
    const files = sources(memoryDir);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      for (const match of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
        const specifier = match[1] ?? match[2];
        if (!specifier.startsWith(".")) continue;
        const target = relative(root, resolve(dirname(file), specifier));
        if (/^(harness|report|cli)([\\/]|$)/.test(target)) offenders.push(`${relative(root, file)} → ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

/**
 * The mutants listed as equivalent in stryker/equivalent-mutants.mjs are mutants Stryker really
 * makes: these tests run its instrumenter over each listed file, so an entry that no longer names
 * one (the code moved, changed, or the mutator makes something else) fails here instead of
 * silently excusing nothing, or excusing a mutant it was not written for.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Instrumenter } from "@stryker-mutator/instrumenter";
import { globSync } from "tinyglobby";
import { describe, expect, it } from "vitest";
import { EQUIVALENT_MUTANTS, equivalenceReason, type ReportedMutant } from "../../stryker/equivalent-mutants.mjs";
import { ROOT } from "../layout/source-graph.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {}, trace() {}, fatal() {}, isDebugEnabled: () => false } as never;

/** The mutants Stryker makes in one file, located as its JSON report locates them (1-based). */
async function mutantsOf(file: string): Promise<ReportedMutant[]> {
  const content = readFileSync(join(ROOT, file), "utf8");
  const options = { plugins: null, excludedMutations: [], ignorers: [], noHeader: true };
  const { mutants } = await new Instrumenter(quiet).instrument([{ name: join(ROOT, file), mutate: true, content }], options);
  const at = (p: { line: number; column: number }) => ({ line: p.line + 1, column: p.column + 1 });
  return mutants.map((m) => ({ mutatorName: m.mutatorName, replacement: m.replacement, location: { start: at(m.location.start), end: at(m.location.end) } }));
}

describe("the equivalent mutants", () => {
  const files = [...new Set(EQUIVALENT_MUTANTS.map((entry) => entry.file))];

  it("each name a place that occurs once in its file", () => {
    for (const { file, code, within = code.replace(/\s…$/, "") } of EQUIVALENT_MUTANTS) {
      expect(readFileSync(join(ROOT, file), "utf8").split(within).length - 1, `${file}: "${within}"`).toBe(1);
    }
  });

  it("are, replacement by replacement, mutants Stryker makes there", async () => {
    for (const file of files) {
      const source = readFileSync(join(ROOT, file), "utf8");
      const excused = (await mutantsOf(file)).filter((mutant) => equivalenceReason(file, source, mutant) !== undefined);
      const listed = EQUIVALENT_MUTANTS.filter((entry) => entry.file === file).flatMap((entry) => entry.replacements.map((r) => `${entry.mutator} → ${r}`));
      expect(excused.map((m) => `${m.mutatorName} → ${m.replacement}`).sort(), file).toEqual(listed.sort());
    }
  }, 60_000);

  it("each say why", () => {
    for (const entry of EQUIVALENT_MUTANTS) expect(entry.reason.length, entry.code).toBeGreaterThan(20);
  });

  it("are listed there rather than marked in src/", () => {
    const marked = globSync("src/**/*.{ts,mjs}", { cwd: ROOT }).filter((file) => readFileSync(join(ROOT, file), "utf8").includes("Stryker disable"));
    expect(marked).toEqual([]);
  });
});

/** The mutation score merges folder reports and sets listed equivalent survivors apart. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mergeReports, score } from "../../stryker/score.mjs";

const source = "export function f(a: number) {\n  let sumA = 0;\n  sumA += a;\n  return sumA * sumA;\n}\n";
const mutant = (status: string, mutatorName: string, replacement: string, line: number, column: number, end: number) => ({
  status,
  mutatorName,
  replacement,
  location: { start: { line, column }, end: { line, column: end } },
});

function report(dir: string, name: string, files: Record<string, unknown>): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ files }));
  return path;
}

describe("the mutation score", () => {
  it("counts a listed survivor as equivalent, any other survivor against the score", () => {
    const files = new Map([
      ["src/harness/stats/cluster-robust.ts", { source, mutants: [mutant("Survived", "AssignmentOperator", "sumA -= a", 3, 3, 12), mutant("Killed", "ArithmeticOperator", "sumA / sumA", 4, 10, 21)] }],
      ["src/memory/rank/heap.ts", { source, mutants: [mutant("Survived", "AssignmentOperator", "sumA -= a", 3, 3, 12), mutant("Ignored", "StringLiteral", '""', 1, 1, 2)] }],
    ]);
    const { folders, equivalent, survivors } = score(files);
    expect(folders.get("src/harness/stats")).toEqual({ detected: 1, undetected: 0, equivalent: 1 });
    expect(folders.get("src/memory/rank")).toEqual({ detected: 0, undetected: 1, equivalent: 0 });
    expect(folders.get("all")).toEqual({ detected: 1, undetected: 1, equivalent: 1 });
    expect(equivalent).toEqual(["src/harness/stats/cluster-robust.ts:3 AssignmentOperator → \"sumA -= a\": subtracting gives −sumA, which is only squared"]);
    expect(survivors).toEqual(['src/memory/rank/heap.ts:3 AssignmentOperator → "sumA -= a" (Survived)']);
  });

  it("merges the reports of several runs, a later report's file replacing an earlier one's", () => {
    const dir = mkdtempSync(join(tmpdir(), "score-"));
    const first = report(dir, "a.json", { "src/x.ts": { source, mutants: [mutant("Survived", "BlockStatement", "{}", 1, 31, 33)] } });
    const second = report(dir, "b.json", {
      "src/x.ts": { source, mutants: [mutant("Killed", "BlockStatement", "{}", 1, 31, 33)] },
      "src/y.ts": { source, mutants: [] },
    });
    const merged = mergeReports([first, second]);
    expect([...merged.keys()]).toEqual(["src/x.ts", "src/y.ts"]);
    expect(score(merged).folders.get("all")).toEqual({ detected: 1, undetected: 0, equivalent: 0 });
  });
});

import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { readResults } from "../../src/harness/results/io.js";
import { type CliOutcome, runCli } from "../cli/sandbox.js";
import { REPO_ROOT, repoPath, useTempDir } from "../harness/temp-files.js";

/**
 * The README's "Evaluate your own memory system" with a TypeScript module: the module it shows is
 * examples/ts-system/recency-words.ts byte for byte, and the command it gives runs the module
 * beside recollect's ablations (into a temporary --out, leaving the project's files alone).
 */
const readme = readFileSync(repoPath("README.md"), "utf8");
const temp = useTempDir("recollect-ts-system-");
let outcome: CliOutcome;

beforeAll(async () => {
  outcome = await runCli(["experiment", "examples/ts-system/experiment.yaml", "--out", temp.path("out"), "--workers", "2"], REPO_ROOT);
}, 300_000);

describe("examples/ts-system", () => {
  it("is the module the README shows", () => {
    const marker = "<!-- file: examples/ts-system/recency-words.ts -->";
    const fenced = /```ts\n([\s\S]*?)\n```/.exec(readme.slice(readme.indexOf(marker)))!;
    expect(readme).toContain(marker);
    expect(`${fenced[1]}\n`).toBe(readFileSync(repoPath("examples/ts-system/recency-words.ts"), "utf8"));
  });

  it("runs through the README's command, its numbers beside the built-in ablations under the same statistics", () => {
    expect(outcome.code, outcome.stderr).toBe(0);
    const results = readResults(temp.path("out/results/ts-system.json"))!;
    const names = results.experiment.ablations.map((a) => a.name);
    expect(names).toContain("recency-words");
    expect(results.trials.some((t) => t.ablation === "recency-words")).toBe(true);
    const evaluation = readFileSync(temp.path("out/EVALUATION.md"), "utf8");
    // A system's one list is not compared on ranks with per-kind sections; on coverage it is.
    expect(evaluation).toMatch(/^\| recency-words +\| +[\d.]+ \| not comparable +\| +[\d.]+ \| (identical|[+−]?[\d.]+ \[)/m);
    expect(evaluation).toContain("clustered by scenario");
  });
});

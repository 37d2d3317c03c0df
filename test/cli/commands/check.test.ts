import { appendFileSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { type CliOutcome, runCli, useSandbox } from "../sandbox.js";

/**
 * `npm run check` through the real command line, in a sandbox with one small experiment and one
 * that needs the LoCoMo file, which the sandbox does not have: the check must say it skipped
 * that one, fail when a report is stale, and pass again after `--update`.
 */
const sandbox = useSandbox();
sandbox.write(
  "experiments/tiny.yaml",
  [
    "name: tiny",
    "description: two ablations of the stream example",
    "scenarios: [../scenarios/stream-example.yaml]",
    "allowOutside: true",
    "ablations: [full, relevance-only]",
    "seeds: [1, 2]",
  ].join("\n"),
);
sandbox.write(
  "experiments/needs-locomo.yaml",
  ["name: needs-locomo", "description: reads the LoCoMo file", "dataset: { locomo: {} }", "ablations: [full]", "seeds: [1]"].join("\n"),
);

let recorded: CliOutcome;
let stale: CliOutcome;
let updated: CliOutcome;
let clean: CliOutcome;
let namedWithoutData: CliOutcome;

beforeAll(async () => {
  recorded = await runCli(["experiment", "experiments/tiny.yaml", "--workers", "1"], sandbox.dir);
  appendFileSync(sandbox.path("EVALUATION.md"), "\nedited by hand\n");
  stale = await runCli(["check", "--workers", "1"], sandbox.dir);
  updated = await runCli(["check", "--update", "--workers", "1"], sandbox.dir);
  clean = await runCli(["check", "--workers", "1"], sandbox.dir);
  namedWithoutData = await runCli(["experiment", "experiments/needs-locomo.yaml"], sandbox.dir);
});

describe("recollect experiment naming a LoCoMo experiment without the data file", () => {
  it("exits 2 with one line saying where to get the file", () => {
    expect(namedWithoutData.code).toBe(2);
    const lines = namedWithoutData.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^recollect: data\/locomo10\.json: LoCoMo data file not found\. Download .* snap-research\/LoCoMo /);
  });
});

describe("recollect check", () => {
  it("starts from a recorded experiment", () => {
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(readFileSync(sandbox.path("results/tiny.json"), "utf8")).toContain('"name": "tiny"');
  });

  it("says it skipped an experiment whose data file is absent, rather than passing silently", () => {
    for (const run of [stale, clean]) {
      expect(run.stdout).toContain("check: SKIPPED experiments/needs-locomo.yaml: the LoCoMo data file data/locomo10.json is absent");
    }
  });

  it("fails, naming the file, when a report is stale", () => {
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain("tiny: matches the recorded results");
    expect(stale.stdout).toContain("EVALUATION.md is stale");
  });

  it("regenerates the stale report with --update, after which it passes", () => {
    expect(updated.code, updated.stdout + updated.stderr).toBe(0);
    expect(readFileSync(sandbox.path("EVALUATION.md"), "utf8")).not.toContain("edited by hand");
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stdout).toContain("check: everything matches the recorded results");
  });
});

import { appendFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { SaxesParser } from "saxes";
import { beforeAll, describe, expect, it } from "vitest";
import { type CliOutcome, runCli, useSandbox } from "../sandbox.js";

/**
 * `npm run check` through the command line's entry (src/cli/run.ts), in a sandbox with one small experiment and one
 * that needs the LoCoMo file, which the sandbox does not have: the check must say it skipped
 * that one, fail when a report is stale, and pass again after `--update`.
 */
const sandbox = useSandbox();
/** The tiny experiment's file; `changes` replace or add top-level lines, keyed by their field. */
function tinyExperiment(changes: Record<string, string> = {}): string {
  const fields: Record<string, string> = {
    name: "tiny",
    description: "two ablations of the stream example",
    scenarios: "[../scenarios/stream-example.yaml]",
    allowOutside: "true",
    ablations: "[full, relevance-only]",
    seeds: "[1, 2]",
    ...changes,
  };
  return Object.entries(fields).map(([field, value]) => `${field}: ${value}`).join("\n");
}
sandbox.write("experiments/tiny.yaml", tinyExperiment());
sandbox.write(
  "experiments/needs-locomo.yaml",
  ["name: needs-locomo", "description: reads the LoCoMo file", "dataset: { locomo: {} }", "ablations: [full]", "seeds: [1]"].join("\n"),
);

const QUOTA_OF_ONE = "{ sections: { working: { quota: 1 }, semantic: { quota: 1 }, episodic: { quota: 1 }, procedural: { quota: 1 } } }";

let recorded: CliOutcome;
let stale: CliOutcome;
let updated: CliOutcome;
let clean: CliOutcome;
let namedWithoutData: CliOutcome;
let orphaned: CliOutcome;
let brokenLink: CliOutcome;
let orphanRemoved: CliOutcome;
let edited: CliOutcome;
let outsideTolerance: CliOutcome;
let withinTolerance: CliOutcome;
let toleratedAblation: CliOutcome;
let rerecorded: CliOutcome;
const ORPHAN = "reports/charts/tiny/recall-over-time.png";

beforeAll(async () => {
  recorded = await runCli(["experiment", "experiments/tiny.yaml", "--workers", "1"], sandbox.dir);
  appendFileSync(sandbox.path("EVALUATION.md"), "\nedited by hand\n");
  stale = await runCli(["check", "--workers", "1", "--junit", "stale.xml"], sandbox.dir);
  updated = await runCli(["check", "--update", "--workers", "1"], sandbox.dir);
  clean = await runCli(["check", "--workers", "1"], sandbox.dir);
  namedWithoutData = await runCli(["experiment", "experiments/needs-locomo.yaml"], sandbox.dir);
  // A chart that the results no longer produce, then a hand-written link to a chart that is absent.
  sandbox.write(ORPHAN, "left by an earlier version");
  orphaned = await runCli(["check", "--workers", "1"], sandbox.dir);
  rmSync(sandbox.path(ORPHAN));
  sandbox.write("README.md", "# tiny\n\n![metrics](reports/charts/tiny/metrics.png)\n\n![gone](reports/charts/tiny/missing.png)\n");
  brokenLink = await runCli(["check", "--workers", "1"], sandbox.dir);
  rmSync(sandbox.path("README.md"));
  sandbox.write(ORPHAN, "left by an earlier version");
  orphanRemoved = await runCli(["check", "--update", "--workers", "1"], sandbox.dir);
  // The experiment edited after its recording: every section's quota is one token, so no memory fits, and a new
  // ablation whose patch changes nothing (no-decay has no decay for a unit to scale).
  sandbox.write(
    "experiments/tiny.yaml",
    tinyExperiment({
      policyPatch: QUOTA_OF_ONE,
      ablations: "[full, relevance-only, { name: slow, from: no-decay, patch: { score: { unitMs: 86400000 } } }]",
    }),
  );
  edited = await runCli(["check", "experiments/tiny.yaml", "--workers", "1", "--json", "check.json", "--junit", "check.xml"], sandbox.dir);
  toleratedAblation = await runCli(["check", "experiments/tiny.yaml", "--workers", "1", "--tolerance", "1"], sandbox.dir);
  // The same edit without the new ablation: every trial and ask pairs, and every value of coverage falls from 1 to 0.
  sandbox.write("experiments/tiny.yaml", tinyExperiment({ policyPatch: QUOTA_OF_ONE }));
  outsideTolerance = await runCli(["check", "experiments/tiny.yaml", "--workers", "1", "--tolerance", "0.5", "--junit", "outside.xml"], sandbox.dir);
  withinTolerance = await runCli(["check", "experiments/tiny.yaml", "--workers", "1", "--tolerance", "1", "--json", "within.json"], sandbox.dir);
  rerecorded = await runCli(["check", "experiments/tiny.yaml", "--workers", "1", "--update", "--junit", "update.xml"], sandbox.dir);
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

describe("recollect check and the chart folder", () => {
  it("fails on a chart that no current result produces, naming it", () => {
    expect(orphaned.code).toBe(1);
    expect(orphaned.stdout).toContain(`${ORPHAN} is an orphan: no current result produces it`);
  });

  it("fails on a markdown link to a chart that does not exist, and passes the links that resolve", () => {
    expect(brokenLink.code).toBe(1);
    expect(brokenLink.stdout).toContain("README.md links to reports/charts/tiny/missing.png, a chart that the current results do not produce");
    expect(brokenLink.stdout).not.toContain("metrics.png, a chart");
  });

  it("removes the orphan with --update", () => {
    expect(orphanRemoved.code, orphanRemoved.stdout).toBe(0);
    expect(orphanRemoved.stdout).toContain(`removed ${ORPHAN}`);
    expect(existsSync(sandbox.path(ORPHAN))).toBe(false);
  });
});

describe("recollect check and the size of the charts", () => {
  // Forty copies of an ablation: no chart can fit their panels within 2,400 px, however small it draws them.
  const crowded = useSandbox();
  const copies = Array.from({ length: 40 }, (_, i) => `{ name: copy-${i + 1}, from: relevance-only }`);
  crowded.write("experiments/crowded.yaml", tinyExperiment({ name: "crowded", ablations: `[full, ${copies.join(", ")}]`, seeds: "[1]" }));

  it("fails on a chart larger than 2,000 × 2,400 px, naming the chart and its size", async () => {
    const run = await runCli(["experiment", "experiments/crowded.yaml", "--workers", "1"], crowded.dir);
    expect(run.code, run.stderr).toBe(0);
    const checked = await runCli(["check", "--workers", "1"], crowded.dir);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/reports\/charts\/crowded\/recall-at-k\.png is [\d,]+ × [\d,]+ px, larger than a chart may be \(2,000 × 2,400 px\)/);
  }, 300_000);
});

describe("recollect check on an edited experiment", () => {
  it("fails, and prints the headline metrics before and after with Δ and its interval before the per-trial details", () => {
    expect(edited.code, edited.stderr).toBe(1);
    const lines = edited.stdout.split("\n");
    const table = lines.indexOf("tiny: headline metrics, recorded → fresh (Δ with its 95% interval, per comparison):");
    const details = lines.findIndex((l) => l.startsWith("check: FAILED with "));
    expect(table).toBeGreaterThanOrEqual(0);
    expect(details).toBeGreaterThan(table);
    const rows = lines.slice(table + 1, details).join("\n");
    expect(rows).toMatch(/^ {2}full {2}\S+ {2}\d\.\d{3} → \d\.\d{3} {2}Δ [+−]\d\.\d{3} \[[+−]\d\.\d{3}, [+−]\d\.\d{3}\] {2}\(\d+ of \d+ values changed\)$/m);
    expect(rows).toMatch(/^ {2}relevance-only {2}/m);
  });

  it("names the policies that changed, by setting", () => {
    expect(edited.stdout).toMatch(/^tiny: policy changed: full: sections\.episodic\.quota \d+ → 1, sections\.procedural\.quota \d+ → 1, sections\.semantic\.quota \d+ → 1, sections\.working\.quota \d+ → 1$/m);
    expect(edited.stdout).toContain("tiny: policy changed: slow: new");
  });

  it("warns of the ablation whose patch changes nothing, as the experiment loader finds it", () => {
    expect(edited.stderr).toContain('recollect: warning: experiments/tiny.yaml: at ablations[2].patch: ablation "slow" retrieves exactly as "no-decay" does');
  });
});

describe("recollect check --json", () => {
  it("writes the headline shifts, the policy changes and every problem for CI systems", () => {
    const report = JSON.parse(readFileSync(sandbox.path("check.json"), "utf8")) as {
      passed: boolean;
      sampled: Record<string, string[]>;
      experiments: { experiment: string; shifts: { ablation: string; metric: string; diff: number; lo: number; hi: number }[]; policies: string[] }[];
      problems: string[];
    };
    expect(report.passed).toBe(false);
    // A full check: no experiment was checked on a sample of its conversations.
    expect(report.sampled).toEqual({});
    expect(report.experiments.map((e) => e.experiment)).toEqual(["tiny"]);
    const full = report.experiments[0]!.shifts.filter((s) => s.ablation === "full");
    expect(full.length).toBeGreaterThan(0);
    for (const s of full) expect(s.lo <= s.diff && s.diff <= s.hi).toBe(true);
    expect(full.some((s) => s.diff !== 0)).toBe(true);
    expect(report.experiments[0]!.policies).toContain("slow: new");
    expect(report.problems.length).toBeGreaterThan(0);
  });
});

/** The JUnit file's test cases by suite, read with a strict XML parser (it throws on XML that is not well-formed). */
function junitCases(file: string): { suite: string; name: string; failure?: { message: string; text: string }; output?: string; skipped?: true }[] {
  const cases: ReturnType<typeof junitCases> = [];
  let suite = "";
  let inside: "failure" | "system-out" | undefined;
  const parser = new SaxesParser();
  parser.on("opentag", (tag) => {
    const a = tag.attributes as Record<string, string>;
    if (tag.name === "testsuite") suite = a.name!;
    if (tag.name === "testcase") cases.push({ suite, name: a.name! });
    if (tag.name === "failure") cases.at(-1)!.failure = { message: a.message!, text: "" };
    if (tag.name === "skipped") cases.at(-1)!.skipped = true;
    if (tag.name === "failure" || tag.name === "system-out") inside = tag.name;
  });
  parser.on("text", (text) => {
    const last = cases.at(-1);
    if (inside === "failure") last!.failure!.text += text;
    if (inside === "system-out") last!.output = (last!.output ?? "") + text;
  });
  parser.on("closetag", () => (inside = undefined));
  parser.write(readFileSync(sandbox.path(file), "utf8")).close();
  return cases;
}

describe("recollect check --junit", () => {
  it("writes a suite per experiment, a case per headline metric of each ablation, failing with Δ and its interval where it moved", () => {
    const cases = junitCases("check.xml");
    const tiny = cases.filter((c) => c.suite === "tiny");
    const shifts = (JSON.parse(readFileSync(sandbox.path("check.json"), "utf8")) as { experiments: { shifts: { ablation: string; metric: string; changed: number }[] }[] })
      .experiments[0]!.shifts;
    expect(tiny.map((c) => c.name)).toEqual([...shifts.map((s) => `${s.ablation} · ${s.metric}`), "per-trial results match the recording"]);
    for (const s of shifts) {
      const c = tiny.find((x) => x.name === `${s.ablation} · ${s.metric}`)!;
      if (s.changed === 0) expect(c.failure).toBeUndefined();
      else expect(c.failure!.message).toMatch(/^Δ [+−]\d\.\d{3} \[[+−]\d\.\d{3}, [+−]\d\.\d{3}\]$/);
    }
    expect(tiny.some((c) => c.failure)).toBe(true);
    const trials = tiny.at(-1)!;
    expect(trials.failure!.message).toMatch(/^\d+ differences$/);
    expect(trials.failure!.text).toContain("tiny: ablation slow, scenario stream-example, seed 1: not in the recorded results");
  });

  it("adds a suite each for the replayed answers and the reports, passing when they are current", () => {
    const cases = junitCases("check.xml");
    expect(cases.filter((c) => c.suite !== "tiny")).toEqual([
      { suite: "answers", name: "the recorded answers replay" },
      { suite: "reports", name: "the reports match the recorded results" },
    ]);
  });

  it("lists a stale report as a failing case, and an experiment it skipped as a skipped one", () => {
    const cases = junitCases("stale.xml");
    const stalePath = "EVALUATION.md is stale: regenerate it with `npm run experiment` or `npm run check -- --update`";
    expect(cases.filter((c) => c.suite === "reports")).toEqual([{ suite: "reports", name: stalePath, failure: { message: stalePath, text: stalePath } }]);
    expect(cases.find((c) => c.suite === "experiments/needs-locomo.yaml")).toEqual({ suite: "experiments/needs-locomo.yaml", name: "run", skipped: true });
    expect(cases.filter((c) => c.suite === "tiny" && c.failure)).toEqual([]);
  });
});

describe("recollect check --junit --update", () => {
  it("passes every case, as the check does, saying the differences were re-recorded", () => {
    expect(rerecorded.code, rerecorded.stdout + rerecorded.stderr).toBe(0);
    const cases = junitCases("update.xml");
    expect(cases.filter((c) => c.failure)).toEqual([]);
    expect(cases.find((c) => c.suite === "tiny" && c.name === "per-trial results match the recording")!.output).toMatch(/^re-recorded \(--update\)\ntiny: /);
  });
});

describe("recollect check --tolerance", () => {
  it("fails when a headline interval leaves ±tolerance, marking the rows and saying why", () => {
    expect(outsideTolerance.code, outsideTolerance.stderr).toBe(1);
    expect(outsideTolerance.stdout).toMatch(/^ {2}full {2}coverage {2}1\.000 → 0\.000 {2}Δ −1\.000 \[−1\.000, \+1\.000\] {2}\(2 of 2 values changed\) {2}OUTSIDE ±0\.5$/m);
    expect(outsideTolerance.stdout).toContain("tiny: 14 differences; not within the tolerance: outside ±0.5: full coverage Δ −1.000 [−1.000, +1.000]; relevance-only coverage Δ −1.000 [−1.000, +1.000]");
    expect(outsideTolerance.stdout).toContain("check: FAILED with 14 differences:");
    const coverage = junitCases("outside.xml").find((c) => c.name === "full · coverage")!;
    expect(coverage.failure!.message).toBe("Δ −1.000 [−1.000, +1.000], outside ±0.5");
    const recall = junitCases("outside.xml").find((c) => c.name === "full · recall_any@1")!;
    expect(recall.failure).toBeUndefined();
    expect(recall.output).toMatch(/, within ±0\.5$/);
  });

  it("passes (exit 0) when every headline interval lies within it, still printing the review and the tolerated differences", () => {
    expect(withinTolerance.code, withinTolerance.stdout + withinTolerance.stderr).toBe(0);
    const lines = withinTolerance.stdout.split("\n");
    const table = lines.indexOf("tiny: headline metrics, recorded → fresh (Δ with its 95% interval, per comparison):");
    const passed = lines.indexOf("check: PASSED within the tolerance: every headline shift's 95% interval lies within ±1; 14 differences tolerated:");
    expect(table).toBeGreaterThanOrEqual(0);
    expect(passed).toBeGreaterThan(table);
    expect(lines[passed + 1]).toMatch(/^ {2}tiny: manifest experimentHash changed: /);
    const report = JSON.parse(readFileSync(sandbox.path("within.json"), "utf8")) as {
      passed: boolean;
      tolerance: number;
      experiments: { withinTolerance: boolean; shifts: { withinTolerance: boolean }[] }[];
      problems: string[];
      tolerated: string[];
    };
    expect([report.passed, report.tolerance, report.problems, report.tolerated.length]).toEqual([true, 1, [], 14]);
    expect(report.experiments[0]!.withinTolerance).toBe(true);
    expect(report.experiments[0]!.shifts.every((s) => s.withinTolerance)).toBe(true);
  });

  it("does not excuse an added ablation, whose trials no tolerance measures", () => {
    expect(toleratedAblation.code).toBe(1);
    expect(toleratedAblation.stdout).toContain("not within the tolerance: trials or asks were added or removed, which no tolerance measures");
  });
});

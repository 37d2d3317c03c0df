import { existsSync, readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { loadGemmaTokenizer } from "../../../src/memory/index.js";
import { loadExperiment } from "../../../src/harness/experiment/load.js";
import { buildResults } from "../../../src/harness/results/build.js";
import { readResults, stableContent } from "../../../src/harness/results/io.js";
import { buildManifest } from "../../../src/harness/results/manifest.js";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { runTrials } from "../../../src/harness/runner/run.js";
import { repoPath } from "../../harness/temp-files.js";
import { type CliOutcome, killCli, runCli, spawnCli, useSandbox } from "../sandbox.js";

/**
 * `recollect experiment` survives kill -9: the run, a process of its own so that it can be killed,
 * is killed once its journal holds a finished trial, and a second run (in this process) finishes
 * the rest and records the same results as an uninterrupted run. The killed run is frozen where it
 * journalled that trial (a preloaded module stops it there), so the kill lands mid-run: the other
 * trials take under a second, less than a loaded machine may leave the test waiting to kill.
 */
const sandbox = useSandbox();
const NAME = "resume-after-kill";
const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const TRIALS = SEEDS.length * 2;

/** A scenario with a thousand memories, so the journal and the resumed run hold trials of some size. */
function heavyScenario(): string {
  const places = ["garden", "kitchen", "lake", "cabin", "river", "hotel", "train", "office", "market", "bakery", "forest", "harbour"];
  const lines = ["name: heavy", "description: a thousand memories and four asks", "pool:"];
  for (let i = 0; i < 8; i++) lines.push(`  - { kind: episodic, text: "Distractor ${i} near the ${places[i]}.", importance: 3 }`);
  lines.push("steps:", "  - remember:");
  for (let i = 0; i < 1000; i++) {
    const kind = i % 2 === 0 ? "semantic" : "episodic";
    lines.push(`      - { id: m${i}, kind: ${kind}, text: "Note ${i}: the ${places[i % 12]} and the ${places[(i * 7) % 12]} on day ${i % 31}.", importance: ${1 + (i % 10)} }`);
  }
  for (let j = 0; j < 4; j++) {
    lines.push("  - advance: 1d", `  - ask: { id: q${j}, query: "What about the ${places[j]} and the ${places[j + 3]}?", expect: [m${j * 5}] }`);
  }
  return lines.join("\n");
}

const scenarioFile = sandbox.write("scenarios-heavy/heavy.yaml", heavyScenario());
const experimentFile = sandbox.write(
  "experiments/resume.yaml",
  [
    `name: ${NAME}`,
    "description: enough trials to interrupt",
    `scenarios: [${JSON.stringify(scenarioFile)}]`,
    "allowOutside: true",
    "ablations: [full, no-touch]",
    `seeds: [${SEEDS.join(", ")}]`,
    "variation: { jitter: 0.1, distractors: 2, shuffle: true, importanceNoise: 1 }",
    "detail: false",
  ].join("\n"),
);
const journalDir = sandbox.path(".recollect/journal");
const FREEZE = { NODE_OPTIONS: `--import=${pathToFileURL(repoPath("test/fixtures/journal/freeze-after-first-line.mjs")).href}` };
const resultsFile = sandbox.path(`results/${NAME}.json`);

const completeLines = (file: string) => readFileSync(file, "utf8").split("\n").slice(0, -1).filter((line) => line.trim() !== "");
const journalFiles = () => (existsSync(journalDir) ? readdirSync(journalDir).map((f) => `${journalDir}/${f}`) : []);

async function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(15);
  }
}

async function uninterruptedRun(): Promise<ExperimentResults> {
  const experiment = await loadExperiment(experimentFile);
  const trials = await runTrials(experiment, { workers: 1 });
  const tokenizer = await loadGemmaTokenizer();
  return buildResults(
    experiment,
    trials,
    buildManifest({ tokenizerSha256: tokenizer.sha256, datasets: experiment.datasets, experimentHash: experiment.hash, wallTimeMs: 0 }),
    // A project experiment is recorded by its path in the project.
    "experiments/resume.yaml",
  );
}

describe("recollect experiment, killed with SIGKILL and run again", () => {
  let first: ReturnType<typeof spawnCli> | undefined;
  afterAll(() => first && killCli(first.child));

  let killedOutcome: CliOutcome;
  let journalAtKill: string;
  let linesAtKill: number;
  let rerun: CliOutcome;
  let uninterrupted: ExperimentResults;

  it("leaves a journal of finished trials and no results when killed mid-run", async () => {
    first = spawnCli(["experiment", experimentFile, "--workers", "1"], sandbox.dir, { env: FREEZE });
    journalAtKill = await waitFor(() => {
      const file = journalFiles()[0];
      return file !== undefined && completeLines(file).length > 0 ? file : undefined;
    }, "the first journalled trial");
    killCli(first.child);
    killedOutcome = await first.done;
    expect(killedOutcome.signal).toBe("SIGKILL");

    linesAtKill = completeLines(journalAtKill).length;
    expect(linesAtKill).toBeGreaterThanOrEqual(1);
    expect(linesAtKill, "the run went on past its first journalled trial").toBeLessThan(TRIALS);
    expect(existsSync(resultsFile)).toBe(false);
  });

  it("resumes from the journal, running only the missing trials", async () => {
    expect(killedOutcome).toBeDefined();
    // The reference first: the same experiment run here without interruption or journal. Not
    // beside the command line's run, which reads its paths with this process in the sandbox.
    uninterrupted = await uninterruptedRun();
    rerun = await runCli(["experiment", experimentFile, "--workers", "1"], sandbox.dir);
    expect(rerun.code, rerun.stderr).toBe(0);
    // The progress starts where the killed run stopped (plain lines: stderr is not a terminal).
    const counts = rerun.stderr.split("\n").flatMap((line) => new RegExp(`^${NAME}: (\\d+/\\d+ trials)`).exec(line)?.[1] ?? []);
    expect(counts[0]).toBe(`${linesAtKill}/${TRIALS} trials`);
    expect(counts.at(-1)).toBe(`${TRIALS}/${TRIALS} trials`);
    // It says that it resumes, and counts only the trials it ran itself.
    expect(rerun.stdout).toMatch(new RegExp(`^${NAME}: resuming an interrupted run: ${linesAtKill} of ${TRIALS} trials are done \\(\\.recollect/journal/[^)]+\\.ndjson\\); running the other ${TRIALS - linesAtKill}$`, "m"));
    expect(rerun.stdout).toMatch(new RegExp(`^${NAME}: ${TRIALS - linesAtKill} trials? in \\d+\\.\\d s \\(and ${linesAtKill} done before, from the journal\\); results/${NAME}\\.json written$`, "m"));
    // The reports are regenerated from the sandbox's results, in the sandbox.
    expect(rerun.stdout).toMatch(/^reports: wrote .*EVALUATION\.md/m);
    expect(existsSync(sandbox.path("EVALUATION.md"))).toBe(true);
    // A finished run removes its journal.
    expect(journalFiles()).toEqual([]);
  });

  it("records the same results as an uninterrupted run", async () => {
    expect(rerun?.code).toBe(0);
    const resumed = readResults(resultsFile)!;
    expect(resumed.trials).toHaveLength(TRIALS);
    expect(stableContent(resumed)).toBe(stableContent(uninterrupted));
  });
});

/**
 * A memory system that misbehaves, run through the real command line (node, tsx, src/cli/main.ts)
 * in sandboxes of their own: a subprocess that crashes, hangs, writes garbage or returns an id it
 * was never given stops the run with one line naming the system, the trial and the call, exit 2,
 * and nothing written but the journal; with `--on-system-error skip` the run finishes and counts
 * the trials it skipped; and a run that stopped resumes from its journal.
 *
 * Each experiment has two tiny scenarios (alpha and beta, one memory and one question each, each
 * in a scope of its own), recollect's `full` and the scripted system of test/fixtures/systems/,
 * one seed, one worker: the trials run alpha/full, alpha/scripted, beta/full, beta/scripted.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { readResults } from "../../src/harness/results/io.js";
import { useTempDir } from "../harness/temp-files.js";
import { isRunning, logged, SCRIPTED_SYSTEM } from "../harness/systems/fixture-system.js";
import { type CliOutcome, commitSandbox, runCliProcess, type Sandbox, sandboxChanges, useSandbox } from "./sandbox.js";

const logs = useTempDir("recollect-system-logs-");
const NAME = "misbehaving";

function scenario(name: string, drink: string): string {
  return [
    `name: ${name}`,
    "description: one fact and one question",
    `scope: ${name}`,
    "steps:",
    `  - remember: { id: drink, kind: semantic, text: "The user drinks ${drink}." }`,
    '  - ask: { id: q, query: "What does the user drink?", expect: [drink] }',
  ].join("\n");
}

/** A committed sandbox whose experiment runs the scripted system with `args`. */
function sandboxFor(args: string[], timeoutMs = 5000): Sandbox {
  const box = useSandbox();
  box.write("scenarios-tiny/alpha.yaml", scenario("alpha", "green tea"));
  box.write("scenarios-tiny/beta.yaml", scenario("beta", "black coffee"));
  box.write(
    `experiments/${NAME}.yaml`,
    [
      `name: ${NAME}`,
      "description: a subprocess system that misbehaves",
      "scenarios: [../scenarios-tiny/alpha.yaml, ../scenarios-tiny/beta.yaml]",
      "allowOutside: true",
      "ablations: [full]",
      "systems:",
      "  - name: scripted",
      `    command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(SCRIPTED_SYSTEM)}, ${args.map((a) => JSON.stringify(a)).join(", ")}]`,
      `    timeoutMs: ${timeoutMs}`,
      "seeds: [1]",
      "k: [1]",
    ].join("\n"),
  );
  commitSandbox(box);
  return box;
}

let logCount = 0;
/**
 * Runs the experiment in `box`; the system logs to `log` (named by the environment, so it is no
 * part of the experiment's hash). Spawned: the system's processes inherit their environment from
 * the command line's process, so the variable must be that process's.
 */
const run = (box: Sandbox, log: string, ...flags: string[]) =>
  runCliProcess(["experiment", `experiments/${NAME}.yaml`, "--workers", "1", ...flags], box.dir, { env: { SCRIPTED_SYSTEM_LOG: log } });

/** The lines of standard error that are not the progress of the run or of its reports. */
const said = (outcome: CliOutcome) => outcome.stderr.split("\n").filter((line) => line !== "" && !line.startsWith(`${NAME}: `) && !line.startsWith("reports: "));

const journalLines = (box: Sandbox) => {
  const dir = box.path(".recollect/journal");
  return readdirSync(dir).flatMap((f) => readFileSync(`${dir}/${f}`, "utf8").split("\n").filter((l) => l.trim() !== "")).map((l) => JSON.parse(l) as { scenario: string; ablation: string });
};

/** Runs `tasks` at most `limit` at a time: each CLI run loads the tokenizer, and the machine has few cores. */
async function limited<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

interface Stop {
  args: string[];
  timeoutMs?: number;
  /** What the system's failure is, after "at retrieve call 1 (at ask q): ". */
  problem: string;
}

const STOPS: Record<string, Stop> = {
  "crashes": {
    args: ["--fail", "crash", "--scope", "beta"],
    problem: "the process exited with code 3; its standard error ends: starting to answer / reading the index / IndexError: list index out of range",
  },
  "hangs past its timeout": { args: ["--fail", "hang", "--scope", "beta"], timeoutMs: 2000, problem: "no reply within 2000 ms (the process was stopped)" },
  "writes garbage": { args: ["--fail", "garbage", "--scope", "beta"], problem: "wrote a line that is not JSON: Traceback (most recent call last): oops" },
  "returns an id it was never given": { args: ["--fail", "unknown-id", "--scope", "beta"], problem: 'returned an id it was never given: "never-given"' },
};

interface Stopped {
  box: Sandbox;
  log: string;
  outcome: CliOutcome;
  changes: string;
}

// Sandboxes are made as the file is collected, so that each is removed when its tests end.
const stopped = new Map<string, Stopped>();
const stopBoxes = Object.entries(STOPS).map(([title, stop]) => ({ title, box: sandboxFor(stop.args, stop.timeoutMs), log: logs.path(`log-${++logCount}.ndjson`) }));
const resumeBox = { box: sandboxFor(["--fail", "crash", "--scope", "beta"]), log: logs.path(`log-${++logCount}.ndjson`) };
let resume: { box: Sandbox; log: string; first: CliOutcome; journal: { scenario: string; ablation: string }[]; second: CliOutcome };

beforeAll(async () => {
  const stops = stopBoxes.map(({ title, box, log }) => async () => {
    const outcome = await run(box, log);
    stopped.set(title, { box, log, outcome, changes: sandboxChanges(box) });
  });
  const resumed = async () => {
    const { box, log } = resumeBox;
    const first = await run(box, log);
    const journal = journalLines(box);
    const second = await run(box, log, "--on-system-error", "skip");
    resume = { box, log, first, journal, second };
  };
  await limited(2, [resumed, ...stops]);
}, 600_000);

describe("a subprocess system that fails a trial stops the run", () => {
  describe.each(Object.keys(STOPS))("when it %s", (title) => {
    it("with one line naming the system, the trial and the call, and exit 2", () => {
      const { outcome } = stopped.get(title)!;
      expect(outcome.code, outcome.stderr).toBe(2);
      expect(said(outcome)).toEqual([`recollect: system "scripted" failed in trial beta / seed 1 at retrieve call 1 (at ask q): ${STOPS[title]!.problem}`]);
      expect(outcome.stderr).not.toMatch(/^\s+at /m);
      expect(outcome.stdout).toBe("");
    });

    it("writing nothing but the journal of the trials that finished", () => {
      const { box, changes } = stopped.get(title)!;
      expect(changes).toMatch(new RegExp(`^\\?\\? \\.recollect/journal/${NAME}-[0-9a-f]{16}\\.ndjson\\n$`));
      expect(journalLines(box).map((t) => `${t.scenario}/${t.ablation}`)).toEqual(["alpha/full", "alpha/scripted", "beta/full"]);
    });

    it("leaving no system process behind", () => {
      const pids = logged(stopped.get(title)!.log).flatMap((entry) => (entry.pid === undefined ? [] : [entry.pid]));
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) expect(isRunning(pid), `process ${pid}`).toBe(false);
    });
  });
});

describe("after a stop, a re-run with --on-system-error skip", () => {
  it("resumes from the journal: the trials that finished before the failure are not run again", () => {
    expect(resume.first.code, resume.first.stderr).toBe(2);
    expect(resume.journal.map((t) => `${t.scenario}/${t.ablation}`)).toEqual(["alpha/full", "alpha/scripted", "beta/full"]);
    // The system opened alpha's scope once, in the first run, and beta's once in each.
    const opened = logged(resume.log).flatMap((entry) => (entry.method === "open" ? [entry.params!.scope] : []));
    expect(opened).toEqual(["alpha", "beta", "beta"]);
    // The second run starts with three of its four trials done.
    const counts = resume.second.stderr.split("\n").flatMap((line) => /^misbehaving: (\d)\/4 trials/.exec(line)?.[1] ?? []);
    expect(counts[0]).toBe("3");
    expect(counts).not.toContain("2");
  });

  it("finishes, exit 0, and says how many trials it skipped and why the first was", () => {
    const { second } = resume;
    expect(second.code, second.stderr).toBe(0);
    expect(said(second)).toEqual([]);
    expect(second.stdout).toContain(
      `${NAME}: skipped 1 trial whose system failed (scored as empty retrievals); the first: system "scripted" failed in trial beta / seed 1 at retrieve call 1 (at ask q): ${STOPS.crashes!.problem}`,
    );
  });

  it("records the failed trial as skipped, its ask as an empty retrieval, and the others as they ran", () => {
    const results = readResults(resume.box.path(`results/${NAME}.json`))!;
    expect(results.trials.map((t) => [t.scenario, t.ablation, t.skipped?.call ?? null])).toEqual([
      ["alpha", "full", null],
      ["alpha", "scripted", null],
      ["beta", "full", null],
      ["beta", "scripted", "retrieve"],
    ]);
    const skipped = results.trials[3]!;
    expect(skipped.skipped!.message).toContain('system "scripted" failed in trial beta / seed 1');
    expect(skipped.asks).toEqual([expect.objectContaining({ ask: "q", ranks: [null], coverage: 0, tokens: 0, returnedTokens: 0 })]);
    expect(results.trials[1]!.asks[0]).toMatchObject({ ranks: [1], coverage: 1 });
    expect(existsSync(resume.box.path(".recollect/journal")) ? readdirSync(resume.box.path(".recollect/journal")) : []).toEqual([]);
  });

  it("counts the skipped trial: in EVALUATION.md's findings and in the appendix's cost table", () => {
    const evaluation = readFileSync(resume.box.path("EVALUATION.md"), "utf8");
    expect(evaluation).toContain("`scripted` failed 1 of 2 trials, skipped and scored as empty retrievals");
    const appendix = readFileSync(resume.box.path(`reports/${NAME}.md`), "utf8");
    expect(appendix).toMatch(/^\| scripted +\|.*\| +1 of 2 \|$/m);
  });
});

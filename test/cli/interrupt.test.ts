import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { loadExperiment } from "../../src/harness/experiment/load.js";
import { readResults } from "../../src/harness/results/io.js";
import { journalFile } from "../../src/harness/runner/run.js";
import { againCommand, SavedWork, shellQuote } from "../../src/cli/interrupt.js";
import { type CliOutcome, commitSandbox, runCli, spawnCli, useSandbox } from "./sandbox.js";

describe("the line Ctrl-C prints", () => {
  const again = "npx recollect experiment experiments/core.yaml";

  it("says that nothing was saved when the command told it of nothing (before any trial, or a command that keeps no journal)", () => {
    expect(new SavedWork(again).message()).toBe(`interrupted; nothing was saved; run it again with \`${again}\``);
  });

  it("counts the trials the journal holds, names it, and gives the command that resumes", () => {
    const saved = new SavedWork(again);
    saved.running("core", ".recollect/journal/core-1.ndjson", undefined, 0);
    saved.progress(37, 880);
    expect(saved.message()).toBe(`interrupted: 37 of 880 trials of core are saved in .recollect/journal/core-1.ndjson; resume with \`${again}\``);
  });

  it("names the results a run wrote before the experiment it stopped in", () => {
    const saved = new SavedWork(again);
    saved.running("core", ".recollect/journal/core-1.ndjson", 880);
    saved.wrote("results/core.json");
    expect(saved.message()).toBe(`interrupted after the trials; written before it: results/core.json; \`${again}\` runs the rest again`);
    saved.running("locomo-end", ".recollect/journal/locomo-end-2.ndjson", 500, 480);
    expect(saved.message()).toBe(
      `interrupted: 480 of 500 trials of locomo-end are saved in .recollect/journal/locomo-end-2.ndjson; written before it: results/core.json; resume with \`${again}\``,
    );
  });

  it("says a run without a journal saved nothing of its experiment", () => {
    const saved = new SavedWork(again);
    saved.running("core", undefined, 880);
    expect(saved.message()).toBe("interrupted while core ran; this command keeps no journal, so nothing of it was saved");
  });
});

describe("the command that runs a command again", () => {
  it("is the npm script the user ran, or the package's bin, with --no-resume left out", () => {
    expect(againCommand(["experiment", "experiments/core.yaml", "--no-resume", "--workers", "2"], "experiment")).toBe("npm run experiment -- experiments/core.yaml --workers 2");
    expect(againCommand(["experiment"], "experiment")).toBe("npm run experiment");
    expect(againCommand(["experiment", "--out", "my results"], "test")).toBe("npx recollect experiment --out 'my results'");
    expect(againCommand(["experiment"], undefined)).toBe("npx recollect experiment");
  });

  it("quotes what a shell would read otherwise", () => {
    expect(shellQuote("experiments/core.yaml")).toBe("experiments/core.yaml");
    expect(shellQuote("it's $HOME")).toBe(`'it'\\''s $HOME'`);
    expect(shellQuote("")).toBe("''");
  });
});

/**
 * The real command line, a process of its own, interrupted as a terminal's Ctrl-C does: SIGINT to
 * its whole process group while a system that takes its time is being run. Then the printed
 * command resumes it (run in this process: that part needs no signal).
 */
describe("an experiment interrupted with Ctrl-C", () => {
  const box = useSandbox();
  const TRIALS = 20;
  const again = "npx recollect experiment experiments/slow.yaml --workers 1";
  let stopped: CliOutcome;
  let resumed: CliOutcome;
  let journal: string;
  let journalled: number;

  beforeAll(async () => {
    box.write(
      "experiments/slow.ts",
      [
        "// Each retrieval waits 400 ms. Once the journal holds more than half the trials (so a slow",
        "// one is saved), it then waits until the file `go` is beside this one (the test makes it",
        "// before resuming): the interrupt lands while trials run, however fast the machine is or",
        "// however long the test takes to send it.",
        'import { existsSync, readdirSync, readFileSync } from "node:fs";',
        'const go = new URL("go", import.meta.url);',
        'const journal = new URL("../.recollect/journal/", import.meta.url);',
        "const journalled = () =>",
        '  existsSync(journal) ? readdirSync(journal).reduce((n, f) => n + readFileSync(new URL(f, journal), "utf8").split("\\n").length - 1, 0) : 0;',
        "const wait = (ms) => new Promise((r) => setTimeout(r, ms));",
        "const retrieve = async () => {",
        "  await wait(400);",
        "  while (journalled() > " + TRIALS / 2 + " && !existsSync(go)) await wait(50);",
        "  return { ids: [] };",
        "};",
        "export default () => ({",
        "  async open() {",
        "    return { async write() {}, retrieve, async close() {} };",
        "  },",
        "});",
      ].join("\n"),
    );
    const file = box.write(
      "experiments/slow.yaml",
      [
        "name: slow",
        "description: a system slow enough to interrupt",
        "scenarios: [../scenarios/stream-example.yaml]",
        "allowOutside: true",
        "ablations: [full]",
        "systems: [{ name: slow, description: waits before every retrieval, module: slow.ts }]",
        `seeds: [${Array.from({ length: TRIALS / 2 }, (_, i) => i + 1).join(", ")}]`,
      ].join("\n"),
    );
    journal = journalFile(".recollect/journal", await loadExperiment(file));
    commitSandbox(box);
    const args = ["experiment", "experiments/slow.yaml", "--workers", "1"];
    const env = { npm_lifecycle_event: "" };
    const { child, done } = spawnCli(args, box.dir, { env });
    // The first ten trials (recollect's own) are quick; interrupt once a slow one has finished
    // (the system then waits for the go).
    let stderr = "";
    await new Promise<void>((resolve) => {
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const counts = [...stderr.matchAll(/^slow: (\d+)\/20 trials/gm)].map((m) => Number(m[1]));
        if (counts.some((n) => n > TRIALS / 2 && n < TRIALS)) resolve();
      });
    });
    process.kill(-child.pid!, "SIGINT");
    stopped = await done;
    journalled = readFileSync(box.path(journal), "utf8").trim().split("\n").length;
    box.write("experiments/go", "");
    resumed = await runCli(args, box.dir, { env });
  }, 300_000);

  it("exits 130 with one line: how many trials the journal holds, and the command that resumes", () => {
    expect(stopped.signal).toBeNull();
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(journalled).toBeGreaterThan(TRIALS / 2);
    expect(journalled).toBeLessThan(TRIALS);
    expect(stopped.stderr.trimEnd().split("\n").at(-1)).toBe(
      `recollect: interrupted: ${journalled} of ${TRIALS} trials of slow are saved in ${journal}; resume with \`${again}\``,
    );
    expect(stopped.stderr).not.toMatch(/^\s+at /m);
    expect(stopped.stdout).not.toContain("results/slow.json");
  });

  it("resumes when run again: says so, runs only the rest, and counts only what it ran", () => {
    expect(resumed.code, resumed.stderr).toBe(0);
    const lines = resumed.stdout.split("\n");
    expect(lines).toContain(`slow: resuming an interrupted run: ${journalled} of ${TRIALS} trials are done (${journal}); running the other ${TRIALS - journalled}`);
    const last = lines.find((line) => line.startsWith("slow: ") && line.endsWith("results/slow.json written"));
    expect(last).toMatch(new RegExp(`^slow: ${TRIALS - journalled} trials? in \\d+\\.\\d s \\(and ${journalled} done before, from the journal\\); results/slow\\.json written$`));
    expect(readResults(box.path("results/slow.json"))!.trials).toHaveLength(TRIALS);
  });
});

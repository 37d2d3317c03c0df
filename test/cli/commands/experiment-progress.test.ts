import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { readResults } from "../../../src/harness/results/io.js";
import { repoPath } from "../../harness/temp-files.js";
import { spawnCli, useSandbox } from "../sandbox.js";

/**
 * The core experiment through the real command line, with every line of its output (stdout and
 * stderr) stamped as it arrives. The heartbeat runs on a thread of its own, so the cadence holds
 * however slow or loaded the machine is; the bound is the issue's: a line at least every 5 s.
 */
const MAX_SILENCE_MS = 5_000;
/** Node, npx and the TypeScript loader start before any of the command's code runs. */
const MAX_START_UP_MS = 60_000;

interface Run {
  code: number | null;
  lines: { at: number; text: string }[];
  endedAt: number;
}

async function timedRun(args: string[], cwd: string): Promise<Run> {
  const started = Date.now();
  const { child, done } = spawnCli(args, cwd);
  const lines: Run["lines"] = [];
  const pending = { stdout: "", stderr: "" };
  for (const name of ["stdout", "stderr"] as const) {
    child[name]!.on("data", (chunk: Buffer) => {
      const at = Date.now() - started;
      const parts = (pending[name] + chunk.toString()).split("\n");
      pending[name] = parts.pop()!;
      for (const text of parts) lines.push({ at, text });
    });
  }
  const outcome = await done;
  return { code: outcome.code, lines, endedAt: Date.now() - started };
}

function longestSilence(run: Run): { ms: number; after: string } {
  let worst = { ms: 0, after: "(start)" };
  const times = run.lines.map((l) => l.at);
  for (let i = 1; i <= times.length; i++) {
    const gap = (i === times.length ? run.endedAt : times[i]!) - times[i - 1]!;
    if (gap > worst.ms) worst = { ms: gap, after: run.lines[i - 1]!.text };
  }
  return worst;
}

const sandbox = useSandbox();
mkdirSync(sandbox.path("experiments"), { recursive: true });
copyFileSync(repoPath("experiments/core.yaml"), sandbox.path("experiments/core.yaml"));

let first: Run;
let again: Run;
const OTHER_CHART = "reports/charts/other/metrics.png";

beforeAll(async () => {
  first = await timedRun(["experiment", "experiments/core.yaml"], sandbox.dir);
  // A chart of another experiment, which a run of core alone must leave alone.
  sandbox.write(OTHER_CHART, "another experiment's chart");
  again = await timedRun(["experiment", "experiments/core.yaml"], sandbox.dir);
}, 600_000);

describe("recollect experiment on the core experiment", () => {
  it("finishes and records its results", () => {
    expect(first.code, first.lines.map((l) => l.text).join("\n")).toBe(0);
    expect(existsSync(sandbox.path("results/core.json"))).toBe(true);
  });

  it("prints progress at least every 5 s from its first line to its end", () => {
    for (const run of [first, again]) {
      expect(run.lines[0]!.at, "start-up before the first line").toBeLessThan(MAX_START_UP_MS);
      const silence = longestSilence(run);
      expect(silence.ms, `longest silence, after "${silence.after}"`).toBeLessThanOrEqual(MAX_SILENCE_MS);
    }
  });

  it("says it counts tokens, embeds what the cache lacks, then that the workers are starting, then counts trials with an estimate of the time left", () => {
    const text = first.lines.map((l) => l.text);
    const trials = readResults(sandbox.path("results/core.json"))!.trials.length;
    expect(text[0]).toBe("core: counting tokens · 0 s");
    const embedding = text.findIndex((l) => /^core: 0\/\d+ texts · embedding with use-lite \(the texts the cache does not hold\) · \d+ s$/.test(l));
    const starting = text.findIndex((l) => l.startsWith(`core: 0/${trials} trials · starting workers · `));
    expect(embedding, text.join("\n")).toBeGreaterThan(0);
    expect(starting).toBeGreaterThan(embedding);
    expect(text.some((l) => new RegExp(`^core: \\d+/${trials} trials · \\d+ s · ETA \\d+ s$`).test(l))).toBe(true);
  });

  it("embeds nothing on the second run: the cache holds every text", () => {
    expect(again.lines.some((l) => l.text.includes("embedding with"))).toBe(false);
  });

  it("gives the reports a progress line of their own, one step per experiment's statistics and per reporter", () => {
    const steps = new Set(first.lines.map((l) => /^reports: \d+\/8 steps · ([\w -]+?) · /.exec(l.text)?.[1]).filter(Boolean));
    expect([...steps]).toEqual(["statistics core", "charts", "appendix", "preset", "evaluation", "failure-analysis", "html", "schemas", "done"]);
  });

  it("on a second run with unchanged results, regenerates only the core experiment's own files", () => {
    expect(again.code).toBe(0);
    const text = again.lines.map((l) => l.text);
    const steps = new Set(text.map((l) => /^reports: \d+\/(\d+) steps · ([\w -]+?) · /.exec(l)).filter(Boolean).map((m) => `${m![2]} of ${m![1]}`));
    expect([...steps]).toEqual(["statistics core of 4", "charts of 4", "appendix of 4", "preset of 4", "done of 4"]);
    expect(text.some((l) => l.endsWith("results/core.json unchanged"))).toBe(true);
    expect(text).toContain("reports: up to date");
    expect(text).toContain("reports: EVALUATION.md and the HTML report left as they are: the results they show did not change");
    expect(existsSync(sandbox.path(OTHER_CHART))).toBe(true);
  });
});

import { readFileSync, writeFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { repoPath } from "../../harness/temp-files.js";
import { type CliOutcome, runCli, useSandbox } from "../sandbox.js";

/**
 * `check --sample N`, the quick check `npm test` runs: in a sandbox with the example benchmark
 * (ten conversations, one question each, and a sweep) recorded in full, the check re-runs three of
 * its conversations, finds a change in one of them, and, as the price of its speed, misses a
 * change confined to a conversation it did not re-run.
 */
const sandbox = useSandbox();
sandbox.write("experiments/conversations.jsonl", readFileSync(repoPath("examples/your-own-benchmark/conversations.jsonl"), "utf8"));
sandbox.write(
  "experiments/bench.yaml",
  [
    "name: bench",
    "description: the example benchmark",
    "dataset: { format: conversations, path: conversations.jsonl }",
    "ablations: [full, relevance-only]",
    "seeds: [1, 2]",
    "k: [1, 3]",
    "sweep:",
    "  grid:",
    "    score.weights: [[1, 1, 1], [1, 0, 0]]",
    "  objective: { metric: recall_any@1 }",
    "  folds: 2",
    "  touch: off",
  ].join("\n"),
);

const RESULTS = "results/bench.json";
/** The sample of three: the middles of three equal stretches of the ten conversations' names. */
const SAMPLED = ["ben-car", "mia-run", "tom-diet"];

let original: string;
let recorded: ExperimentResults;
let full: CliOutcome;
let sampled: CliOutcome;
beforeAll(async () => {
  const made = await runCli(["experiment", "experiments/bench.yaml", "--workers", "1"], sandbox.dir);
  expect(made.code, made.stderr).toBe(0);
  original = readFileSync(sandbox.path(RESULTS), "utf8");
  recorded = JSON.parse(original) as ExperimentResults;
  full = await runCli(["check", "--workers", "1"], sandbox.dir);
  sampled = await runCli(["check", "--workers", "1", "--sample", "3", "--json", "sampled.json", "--junit", "sampled.xml"], sandbox.dir);
});

/** The check with `--sample 3` after every recorded ask of `scenario` lost its ranks, then the recording put back. */
async function checkWithChangedConversation(scenario: string): Promise<CliOutcome> {
  const changed = { ...recorded, trials: recorded.trials.map((t) => (t.scenario === scenario ? { ...t, asks: t.asks.map((a) => ({ ...a, ranks: a.ranks.map(() => null) })) } : t)) };
  writeFileSync(sandbox.path(RESULTS), JSON.stringify(changed));
  try {
    return await runCli(["check", "--workers", "1", "--sample", "3"], sandbox.dir);
  } finally {
    writeFileSync(sandbox.path(RESULTS), original);
  }
}

describe("check --sample", () => {
  it("passes where the full check passes, saying which conversations it re-ran", () => {
    expect(full.code, full.stderr).toBe(0);
    expect(sampled.code, sampled.stderr).toBe(0);
    expect(recorded.experiment.scenarios.map((s) => s.name)).toEqual(expect.arrayContaining(SAMPLED));
    expect(sampled.stdout).toContain(`bench: re-ran 3 of 10 conversations (${SAMPLED.join(", ")}); the others' trials are the recorded ones`);
    expect(sampled.stdout).toContain("bench: matches the recorded results");
    expect(full.stdout).not.toContain("re-ran");
  });

  it("lists the conversations it re-ran in its JSON report, and says so in its JUnit case of the per-trial comparison", () => {
    const report = JSON.parse(readFileSync(sandbox.path("sampled.json"), "utf8")) as { passed: boolean; sampled: Record<string, string[]> };
    expect(report).toMatchObject({ passed: true, sampled: { bench: SAMPLED } });
    const junit = readFileSync(sandbox.path("sampled.xml"), "utf8");
    expect(junit).toMatch(new RegExp(`<testcase classname="bench" name="per-trial results match the recording"[^>]*>\\s*<system-out>re-ran 3 of 10 conversations \\(${SAMPLED.join(", ")}\\)</system-out>`));
  });

  it("finds a change in a conversation it re-ran, naming it", async () => {
    const outcome = await checkWithChangedConversation(SAMPLED[1]!);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toMatch(new RegExp(`bench: ablation relevance-only, metric recall_any@1, scenario ${SAMPLED[1]}, ask q1, seed 1: 0 → 1`));
  });

  it("misses a change confined to a conversation it did not re-run: the full check is what finds that", async () => {
    const outcome = await checkWithChangedConversation("ana-cat");
    // The reports, rendered from the changed recording, no longer match theirs; the trials do.
    expect(outcome.stdout).toContain("bench: matches the recorded results");
    expect(outcome.stdout).not.toContain("scenario ana-cat");
  });

  it("re-runs every conversation when the experiment changed since its recording, saying so", async () => {
    const file = sandbox.path("experiments/bench.yaml");
    const before = readFileSync(file, "utf8");
    writeFileSync(file, before.replace("seeds: [1, 2]", "seeds: [1, 2, 3]"));
    try {
      const outcome = await runCli(["check", "--workers", "1", "--sample", "3"], sandbox.dir);
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toContain("bench: re-ran every conversation, not a sample: the recording is of another version of the experiment");
      // A conversation outside the sample ran: its new seed's trials are found missing from the recording.
      expect(outcome.stdout).toContain("bench: ablation full, scenario ana-cat, seed 3: not in the recorded results");
    } finally {
      writeFileSync(file, before);
    }
  });

  it("refuses --update, which would record figures it did not produce, --tolerance, which would weigh copies, and a sample of none", async () => {
    for (const flag of [["--update"], ["--tolerance", "0.01"]]) {
      const refused = await runCli(["check", "--sample", "3", ...flag], sandbox.dir);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`--sample cannot be given with ${flag[0]}: a sampled check's results are partly the recorded ones`);
    }
    const none = await runCli(["check", "--sample", "0"], sandbox.dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--sample expects");
    expect(readFileSync(sandbox.path(RESULTS), "utf8")).toBe(original);
  });
});

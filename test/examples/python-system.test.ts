import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { metricValue } from "../../src/harness/metrics.js";
import { readResults } from "../../src/harness/results/io.js";
import type { ExperimentResults } from "../../src/harness/results/types.js";
import { type CliOutcome, runCli } from "../cli/sandbox.js";
import { REPO_ROOT, useTempDir } from "../harness/temp-files.js";

/**
 * examples/python-system: a BM25 memory in Python's standard library alone, over the subprocess
 * protocol. On LoCoMo, asked after the last session, it must score what recollect's own BM25
 * ranking scores (R_any@5 within 0.03); on the conversation JSON Lines example it runs beside the
 * built-in ablations and the recent-window baseline. Both runs write into a temporary --out.
 */
const LOCOMO = "data/locomo10.json";
const temp = useTempDir("recollect-python-system-");
const run = (file: string, out: string) => runCli(["experiment", file, "--out", temp.path(out), "--workers", "2"], REPO_ROOT);

/** Mean over asks of the metric, seeds averaged first, for one ablation or system. */
function meanOf(results: ExperimentResults, ablation: string, metric: string): number {
  const byAsk = new Map<string, number[]>();
  for (const trial of results.trials.filter((t) => t.ablation === ablation)) {
    for (const ask of trial.asks) byAsk.set(`${trial.scenario}/${ask.ask}`, [...(byAsk.get(`${trial.scenario}/${ask.ask}`) ?? []), metricValue(ask, metric) ?? 0]);
  }
  const means = [...byAsk.values()].map((v) => v.reduce((a, b) => a + b, 0) / v.length);
  return means.reduce((a, b) => a + b, 0) / means.length;
}

let conversations: CliOutcome;
let locomo: CliOutcome | undefined;
beforeAll(async () => {
  conversations = await run("examples/python-system/conversations.yaml", "conversations");
  if (existsSync(LOCOMO)) locomo = await run("examples/python-system/experiment.yaml", "locomo");
}, 900_000);

describe("examples/python-system", () => {
  it("runs on the conversation JSON Lines example, beside the built-in ablations, with clustered intervals", () => {
    expect(conversations.code, conversations.stderr).toBe(0);
    const results = readResults(temp.path("conversations/results/python-system-conversations.json"))!;
    expect(new Set(results.trials.map((t) => t.ablation))).toEqual(new Set(["relevance-only-bm25", "full", "python-bm25", "recent-window"]));
    const evaluation = readFileSync(temp.path("conversations/EVALUATION.md"), "utf8");
    expect(evaluation).toMatch(/^\| python-bm25 +\| +[\d.]+ \| /m);
    expect(evaluation).toContain("clustered by");
  });

  it.skipIf(!existsSync(LOCOMO))("scores on LoCoMo (end) what recollect's relevance-only-bm25 scores: R_any@5 within 0.03", () => {
    expect(locomo!.code, locomo!.stderr).toBe(0);
    const results = readResults(temp.path("locomo/results/python-system.json"))!;
    const python = meanOf(results, "python-bm25", "recall_any@5");
    const ours = meanOf(results, "relevance-only-bm25", "recall_any@5");
    expect(python).toBeGreaterThan(0.3);
    expect(Math.abs(python - ours)).toBeLessThanOrEqual(0.03);
  });
});

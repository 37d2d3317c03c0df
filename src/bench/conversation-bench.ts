/**
 * The conversation benchmark rows of `npm run bench`: a generated benchmark of the shape of a
 * large public one (418 conversations × 244 turns, one question each) run through `recollect
 * experiment` with 8 ablations × 3 seeds, and a ~30 MB .jsonl.gz of 418 conversations imported.
 * Each step runs in a process of its own (conversation-probe.ts), so its peak RSS is its own. The
 * machine's load average is recorded beside each figure: on a shared machine it explains them.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeConversationBenchmark, type ConversationDataOptions } from "./conversation-data.js";
import type { ProbeResult } from "./conversation-probe.js";
import { type Cell, markdownTable } from "./format.js";

/** The targets. */
export const EXPERIMENT_TARGET_S = 240;
export const IMPORT_TARGET_MB = 1024;

const ABLATIONS = ["full", "relevance-only", "recency-only", "importance-only", "no-decay", "no-touch", "pooled", "bm25"];
const SEEDS = [1, 2, 3];
const SHAPE = { conversations: 418, turnsPerConversation: 244, turnsPerSession: 12, seed: 1 };
/** About 40 words a turn: the size of the benchmark the target was set on (some 35 MB of text). */
const EXPERIMENT_DATA: ConversationDataOptions = { ...SHAPE, words: [20, 60] };
/** Long turns, to reach some 30 MB compressed. */
const IMPORT_DATA: ConversationDataOptions = { ...SHAPE, words: [80, 220] };

export interface ConversationBenchRow {
  step: "import" | "experiment";
  data: string;
  fileMb: number;
  wallMs: number;
  peakRssMb: number;
  /** One-minute load average before and after the step. */
  load: [number, number];
  target: string;
  met: boolean;
}

export async function runConversationBench(log: (line: string) => void, workers = availableParallelism()): Promise<ConversationBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "recollect-conversation-bench-"));
  try {
    const rows: ConversationBenchRow[] = [];
    const big = join(dir, "import.jsonl.gz");
    log(`conversations: generating ${IMPORT_DATA.conversations} conversations × ${IMPORT_DATA.turnsPerConversation} long turns`);
    await writeConversationBenchmark(big, IMPORT_DATA);
    const imported = probe(dir, ["import", big]);
    rows.push({
      step: "import",
      data: `${SHAPE.conversations} conversations × ${SHAPE.turnsPerConversation} turns of ${IMPORT_DATA.words.join("–")} words (${imported.result.summary})`,
      fileMb: megabytes(big),
      ...imported.figures,
      target: `peak RSS < ${IMPORT_TARGET_MB} MB`,
      met: imported.figures.peakRssMb < IMPORT_TARGET_MB,
    });

    const data = join(dir, "bench.jsonl.gz");
    log(`conversations: generating ${EXPERIMENT_DATA.conversations} conversations × ${EXPERIMENT_DATA.turnsPerConversation} turns`);
    await writeConversationBenchmark(data, EXPERIMENT_DATA);
    const experiment = join(dir, "bench.yaml");
    writeFileSync(
      experiment,
      [
        "name: conversation-bench",
        "description: a generated conversation benchmark",
        "dataset: { format: conversations, path: bench.jsonl.gz }",
        `ablations: [${ABLATIONS.join(", ")}]`,
        `seeds: [${SEEDS.join(", ")}]`,
        "variation: { shuffle: true, importanceNoise: 1 }",
        "k: [1, 5, 10]",
        "detail: false",
      ].join("\n"),
    );
    const trials = SHAPE.conversations * ABLATIONS.length * SEEDS.length;
    log(`conversations: recollect experiment, ${trials} trials on ${workers} workers`);
    const ran = probe(dir, ["cli", "experiment", experiment, "--out", join(dir, "out"), "--workers", String(workers), "--no-resume"]);
    rows.push({
      step: "experiment",
      data: `${SHAPE.conversations} × ${SHAPE.turnsPerConversation} turns of ${EXPERIMENT_DATA.words.join("–")} words, one question each; ${ABLATIONS.length} ablations × ${SEEDS.length} seeds = ${trials} trials, ${workers} workers, reports included`,
      fileMb: megabytes(data),
      ...ran.figures,
      target: `wall ≤ ${EXPERIMENT_TARGET_S} s`,
      met: ran.figures.wallMs <= EXPERIMENT_TARGET_S * 1000,
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function probe(dir: string, args: string[]): { result: ProbeResult; figures: Pick<ConversationBenchRow, "wallMs" | "peakRssMb" | "load"> } {
  const resultFile = join(dir, "probe.json");
  const script = fileURLToPath(new URL("./conversation-probe.ts", import.meta.url));
  const before = loadavg()[0];
  const child = spawnSync(process.execPath, ["--import", "tsx", script, resultFile, ...args], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const result = JSON.parse(readFileSync(resultFile, "utf8")) as ProbeResult;
  if (child.status !== 0 || result.exitCode !== 0) throw new Error(`bench step ${args.join(" ")} failed: ${child.stderr.trim().split("\n").slice(-3).join(" / ")}`);
  return { result, figures: { wallMs: result.wallMs, peakRssMb: result.peakRssMb, load: [before, loadavg()[0]] } };
}

const megabytes = (file: string) => statSync(file).size / 2 ** 20;

export function renderConversationBench(rows: ConversationBenchRow[]): string {
  return [
    "## Conversation benchmark",
    "",
    "Generated conversation JSON Lines files, each step in a process of its own. Wall time and peak RSS are the " +
      "whole process's (worker threads included); load is the machine's one-minute load average before → after.",
    "",
    markdownTable(
      ["step", "data", "file (MB)", "wall (s)", "peak RSS (MB)", "load", "target", "met"],
      rows.map((r): Cell[] => [r.step, r.data, r.fileMb, r.wallMs / 1000, r.peakRssMb, `${r.load[0].toFixed(2)} → ${r.load[1].toFixed(2)}`, r.target, r.met ? "yes" : "NO"]),
    ),
    "",
  ].join("\n");
}

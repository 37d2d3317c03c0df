/**
 * The benchmark: for each store size, build a synthetic store through the real write path, then
 * time retrieval three ways (stream order with bm25, stream order with 384-dim embeddings, the
 * full per-kind policy) beside a naive SQLite-scan baseline and one-pass floors, and time the
 * core experiment grid through the harness. Figures are measured in one process so ratios
 * compare like with like on a noisy machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { fullPolicy, streamPreset } from "../memory/presets.js";
import { retrieve } from "../memory/retrieve.js";
import { type MemoryStore, openStore } from "../memory/store/store.js";
import { loadGemmaTokenizer, type TokenCounter } from "../memory/tokenizer.js";
import type { RetrievalPolicy } from "../memory/types.js";
import { plainSum, simdSummer } from "./floor.js";
import { type GridTiming, timeGrid } from "./grid.js";
import { naiveBm25Baseline } from "./naive.js";
import { type Latency, timeRuns } from "./stats.js";
import { BENCH_MODEL, BENCH_SCOPE, type BenchQuery, cheapTokenCounter, SyntheticData } from "./synthetic.js";

export interface BenchOptions {
  sizes: number[];
  queries: number;
  seed?: number;
  dim?: number;
  /** Time budget per measured figure; slow figures stop early (at least a few runs). */
  budgetMs?: number;
  /** Memories per write transaction. */
  chunk?: number;
  /** Memories ingested to compare the cheap counter with the Gemma tokenizer. */
  tokeniserSample?: number;
  /** The experiment grid to time, and at which worker counts; null skips it. */
  grid?: { file: string; workers: number[] } | null;
}

export interface SizeFigures {
  size: number;
  ingest: { ms: number; perSecond: number };
  streamBm25: Latency;
  naive: Latency;
  /** naive p50 / stream-bm25 p50. */
  speedup: number;
  /** Did the index and the naive scan return the same top 5 on the agreement queries? */
  naiveAgrees: boolean;
  embedding: Latency;
  /** Whether the SIMD kernel served the embedding queries. */
  simd: boolean;
  plainSum: Latency;
  simdSum: Latency | null;
  fullPolicy: Latency;
  rssMb: number;
  /** Peak RSS of the process up to the end of this size's ingest (before the naive baseline). */
  peakAfterIngestMb: number;
}

export interface BenchReport {
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; platform: string };
  options: Required<Omit<BenchOptions, "grid">> & { grid: BenchOptions["grid"] };
  sizes: SizeFigures[];
  tokeniser: { sample: number; cheapPerSecond: number; gemmaPerSecond: number };
  grid: GridTiming[];
  peakRssMb: number;
  totalMs: number;
}

const K = 5;
const AGREEMENT_QUERIES = 5;

/** streamPreset with bm25 relevance: pooled score order, top 5, touch on. */
export const streamBm25Policy: RetrievalPolicy = {
  ...streamPreset,
  score: { ...streamPreset.score, relevance: "bm25" },
};

export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<BenchReport> {
  const started = performance.now();
  const opts = {
    seed: 1,
    dim: 384,
    budgetMs: 10_000,
    chunk: 20_000,
    tokeniserSample: 10_000,
    grid: { file: "experiments/core.yaml", workers: [1, availableParallelism()] },
    ...options,
  };
  const sizes: SizeFigures[] = [];
  for (const size of opts.sizes) sizes.push(benchSize(size, opts, log));

  log(`tokeniser: ingesting ${opts.tokeniserSample} memories with each counter`);
  const gemma = await loadGemmaTokenizer();
  const tokeniser = {
    sample: opts.tokeniserSample,
    cheapPerSecond: ingestRate(opts.tokeniserSample, cheapTokenCounter, opts),
    gemmaPerSecond: ingestRate(opts.tokeniserSample, gemma, opts),
  };

  const grid: GridTiming[] = [];
  for (const workers of opts.grid?.workers ?? []) {
    log(`grid: ${opts.grid?.file} with ${workers} worker(s)`);
    grid.push(await timeGrid((opts.grid as { file: string }).file, workers));
  }
  const cpu = cpus();
  return {
    machine: {
      cpus: cpu.length,
      cpuModel: cpu[0]?.model ?? "unknown",
      memoryGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
    },
    options: opts,
    sizes,
    tokeniser,
    grid,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    totalMs: performance.now() - started,
  };
}

function benchSize(size: number, opts: Required<Omit<BenchOptions, "grid">>, log: (line: string) => void): SizeFigures {
  const dir = mkdtempSync(join(tmpdir(), "recollect-bench-"));
  const file = join(dir, "bench.sqlite");
  const store = openStore(file, { tokenizer: cheapTokenCounter });
  const reader = new Database(file, { readonly: true });
  try {
    log(`N=${size}: ingesting`);
    const data = new SyntheticData({ seed: opts.seed, dim: opts.dim });
    let ingestMs = 0;
    for (let done = 0; done < size; ) {
      const batch = data.nextMemories(Math.min(opts.chunk, size - done));
      const t = performance.now();
      store.rememberMany(batch);
      ingestMs += performance.now() - t;
      done += batch.length;
    }
    const queries = data.queries(Math.max(opts.queries, 1) + 8);
    const at = (i: number) => queries[i % queries.length];
    const request = (q: BenchQuery, policy: RetrievalPolicy) => ({
      scope: BENCH_SCOPE,
      query: { text: q.text, ...(q.vector ? { embedding: { model: BENCH_MODEL, vector: q.vector } } : {}) },
      now: q.now,
      policy,
    });
    const naive = naiveBm25Baseline(reader, BENCH_SCOPE, streamBm25Policy.score);
    // Past 100k a naive query takes seconds: one agreement query and no warm-up there.
    const large = size > 100_000;
    const naiveAgrees = agrees(store, naive, queries.slice(0, large ? 1 : AGREEMENT_QUERIES));
    const peakAfterIngestMb = process.resourceUsage().maxRSS / 1024;
    const budget = { count: opts.queries, budgetMs: opts.budgetMs };

    log(`N=${size}: stream retrieval (bm25)`);
    const streamBm25 = timeRuns((i) => retrieve(store, request(at(i), streamBm25Policy)), budget);
    log(`N=${size}: naive baseline`);
    const naiveLatency = timeRuns(
      (i) => {
        const q = at(i);
        store.touch(naive.topK(q.text, q.now, K), q.now);
      },
      { ...budget, warmup: large ? 0 : 1, minRuns: 3 },
    );
    log(`N=${size}: embedding relevance`);
    const embedding = timeRuns((i) => retrieve(store, request(at(i), streamPreset)), budget);
    const index = store.index(BENCH_SCOPE);
    const vectors = index?.vectors ?? null;
    const used = vectors === null ? new Float32Array(0) : vectors.data.subarray(0, size * vectors.dim);
    const plain = timeRuns(() => plainSum(used), { ...budget, count: Math.min(opts.queries, 50) });
    const memory = vectors?.wasmMemory ?? null;
    const summer = memory === null ? null : simdSummer(memory);
    const simdSum = summer === null ? null : timeRuns(() => summer(used), { ...budget, count: Math.min(opts.queries, 50) });
    log(`N=${size}: full policy`);
    const full = timeRuns((i) => retrieve(store, request(at(i), fullPolicy)), budget);

    return {
      size,
      ingest: { ms: ingestMs, perSecond: (size / ingestMs) * 1000 },
      streamBm25,
      naive: naiveLatency,
      speedup: naiveLatency.p50 / streamBm25.p50,
      naiveAgrees,
      embedding,
      simd: vectors?.usesSimd ?? false,
      plainSum: plain,
      simdSum,
      fullPolicy: full,
      rssMb: process.memoryUsage().rss / 2 ** 20,
      peakAfterIngestMb,
    };
  } finally {
    reader.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The index's stream top 5 equals the naive scan's, with touch off so both see one state. */
export function agrees(store: MemoryStore, naive: ReturnType<typeof naiveBm25Baseline>, queries: BenchQuery[]): boolean {
  const policy = { ...streamBm25Policy, touch: false };
  return queries.every((q) => {
    const block = retrieve(store, { scope: BENCH_SCOPE, query: { text: q.text }, now: q.now, policy });
    const ids = block.sections[0].kept;
    const expected = naive.topK(q.text, q.now, K);
    return ids.length === expected.length && ids.every((id, i) => id === expected[i]);
  });
}

/** Memories per second through rememberMany with `tokenizer` pricing each line. */
function ingestRate(count: number, tokenizer: TokenCounter, opts: { seed: number; dim: number; chunk: number }): number {
  const store = openStore(":memory:", { tokenizer });
  try {
    const data = new SyntheticData({ seed: opts.seed, dim: opts.dim });
    let ms = 0;
    for (let done = 0; done < count; ) {
      const batch = data.nextMemories(Math.min(opts.chunk, count - done));
      const t = performance.now();
      store.rememberMany(batch);
      ms += performance.now() - t;
      done += batch.length;
    }
    return (count / ms) * 1000;
  } finally {
    store.close();
  }
}

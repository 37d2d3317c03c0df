/**
 * The benchmark: for each store size, write a synthetic store through the real write path beside
 * the same rows in SQLite FTS5, then time retrieval (stream order with bm25 against FTS5's bm25
 * top 5, the full per-kind block, stream order with 384-dim embeddings against a one-pass floor
 * over the same vectors); then time the full block on stores ten times apart against each other.
 * Compared figures are measured in one process and interleaved batch by batch or query by query,
 * so that their ratios hold on a noisy machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fullPolicy, streamPreset } from "../memory/index.js";
import { retrieve } from "../memory/index.js";
import { type MemoryStore, openStore } from "../memory/index.js";
import { loadGemmaTokenizer, type TokenCounter } from "../memory/index.js";
import type { RetrievalPolicy, RetrieveRequest } from "../memory/index.js";
import { wordSet } from "../memory/index.js";
import { onePass } from "./floor.js";
import { type ResidentGrowth, residentGrowth, settledRss } from "./resident.js";
import { Fts5Peer } from "./fts5.js";
import { type GridTiming, timeGrid } from "./grid.js";
import { cpuMsSince, type Latency, medianRatio, summarise, timeInterleaved, timeRounds } from "./stats.js";
import { BENCH_MODEL, BENCH_SCOPE, type BenchQuery, cheapTokenCounter, SyntheticData } from "./synthetic.js";

export interface BenchOptions {
  sizes: number[];
  queries: number;
  seed?: number;
  dim?: number;
  /** Time budget per measured group of figures; slow ones stop early (after a few runs). */
  budgetMs?: number;
  /** Memories per write transaction. */
  chunk?: number;
  /** Memories ingested to compare the cheap counter with the Gemma tokenizer. */
  tokeniserSample?: number;
  /** The experiment grid to time, and at which worker counts; null skips it. */
  grid?: { file: string; workers: number[] } | null;
}

/** Every timed figure of one size, in ms per run. */
export interface SizeFigures {
  size: number;
  /** Ingest of one batch (`chunk` memories) with line costs from the cheap counter. */
  ingest: Latency;
  /** FTS5 insert of the same batch. */
  ingestFts5: Latency;
  /** streamPreset with bm25 relevance: pooled, top 5, touch on. */
  stream: Latency;
  /** FTS5 bm25() top 5 for an OR of the same query's words. */
  fts5: Latency;
  /** fullPolicy: the per-kind block. */
  full: Latency;
  /** streamPreset with 384-dim embeddings. */
  embedding: Latency;
  /** One pass over the same embeddings: a SIMD sum where the kernel is SIMD, a plain JS sum otherwise. */
  floor: Latency;
  simd: boolean;
  /** Memories per second over the whole ingest, for each side. */
  ingestPerSecond: { recollect: number; fts5: number };
  /**
   * Peer ÷ recollect (above 1: recollect is faster), and embedding ÷ floor: the median of each
   * round's ratio (see medianRatio), and the ratio of their p50s beside it.
   */
  ratios: { streamVsFts5: number; ingestVsFts5: number; embeddingVsFloor: number; embeddingVsFloorP50: number };
  rssMb: number;
  /** Peak RSS of the process up to the end of this size's ingest. */
  peakAfterIngestMb: number;
  /** RSS growth across this size's ingest and queries, per million memories (MB of 10⁶ bytes). */
  resident: ResidentGrowth;
}

export interface BenchReport {
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    platform: string;
    /** os.loadavg() (1, 5 and 15 minutes) when the bench started and when it ended. */
    loadAverage: { start: number[]; end: number[] };
  };
  options: Required<Omit<BenchOptions, "grid">> & { grid: BenchOptions["grid"] };
  sizes: SizeFigures[];
  /**
   * The full block at a size against a ten times smaller one, timed query by query in turn on the
   * two stores (so that a change in the machine's load between sizes does not skew it): p50s and
   * their ratio (linear growth gives about 10).
   */
  fullGrowth: { from: number; to: number; fromP50: number; toP50: number; ratio: number }[];
  tokeniser: { sample: number; cheapPerSecond: number; gemmaPerSecond: number };
  grid: GridTiming[];
  peakRssMb: number;
  totalMs: number;
  /** User and system CPU time of the whole bench, every thread, beside its wall time (totalMs). */
  totalCpuMs: number;
}

const K = 5;
/** Rounds of embedding search against its floor that the budget does not cut short. */
const EMBEDDING_ROUNDS = 30;

/** streamPreset with bm25 relevance: pooled score order, top 5, touch on. */
export const streamBm25Policy: RetrievalPolicy = {
  ...streamPreset,
  score: { ...streamPreset.score, relevance: "bm25" },
};

export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<BenchReport> {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const loadAtStart = loadavg();
  const opts = {
    seed: 1,
    dim: 384,
    budgetMs: 10_000,
    chunk: 5_000,
    tokeniserSample: 2_000,
    grid: null,
    ...options,
  };
  const dir = mkdtempSync(join(tmpdir(), "recollect-bench-"));
  const stores: { size: number; store: MemoryStore }[] = [];
  const sizes: SizeFigures[] = [];
  const fullGrowth: BenchReport["fullGrowth"] = [];
  try {
    log("warm-up: one untimed batch into a store and an FTS5 table that are then thrown away");
    warmUpIngest(dir, opts);
    for (const size of opts.sizes) {
      const store = openStore(join(dir, `recollect-${size}.sqlite`), { tokenizer: cheapTokenCounter });
      stores.push({ size, store });
      sizes.push(benchSize(size, store, join(dir, `fts5-${size}.sqlite`), opts, log));
    }
    for (const big of stores) {
      const small = stores.find((s) => s.size * 10 === big.size);
      if (small === undefined) continue;
      log(`N=${small.size} and N=${big.size}: full per-kind block, query by query in turn`);
      const queries = new SyntheticData({ seed: opts.seed, dim: opts.dim }).queries(Math.max(opts.queries, 1) + 8);
      const full = (store: MemoryStore) => (i: number) => retrieve(store, request(queries[i % queries.length], fullPolicy));
      const [from, to] = timeInterleaved([full(small.store), full(big.store)], { count: opts.queries, budgetMs: opts.budgetMs });
      fullGrowth.push({ from: small.size, to: big.size, fromP50: from.p50, toP50: to.p50, ratio: to.p50 / from.p50 });
    }
  } finally {
    for (const { store } of stores) store.close();
    rmSync(dir, { recursive: true, force: true });
  }

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
      loadAverage: { start: loadAtStart, end: loadavg() },
    },
    options: opts,
    sizes,
    fullGrowth,
    tokeniser,
    grid,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    totalMs: performance.now() - started,
    totalCpuMs: cpuMsSince(cpuStarted),
  };
}

/** The worker counts the grid is timed at by default: one, and every core. */
export function defaultGridWorkers(): number[] {
  return [...new Set([1, availableParallelism()])];
}

/** A retrieval of `q` under `policy` in the bench scope. */
function request(q: BenchQuery, policy: RetrievalPolicy): RetrieveRequest {
  return {
    scope: BENCH_SCOPE,
    query: { text: q.text, ...(q.vector ? { embedding: { model: BENCH_MODEL, vector: q.vector } } : {}) },
    now: q.now,
    policy,
  };
}

/**
 * Writes one batch into a store and an FTS5 table that are then thrown away, so that ingest is
 * timed on compiled code, as queries are timed after untimed rounds (see timeInterleaved): a fresh
 * process spends its first batch compiling the write path, which the peer, being C, never does.
 */
function warmUpIngest(dir: string, opts: { seed: number; dim: number; chunk: number }): void {
  const store = openStore(join(dir, "warm-up.sqlite"), { tokenizer: cheapTokenCounter });
  const fts5 = new Fts5Peer(join(dir, "warm-up-fts5.sqlite"), cheapTokenCounter);
  try {
    // Another seed: the measured stores get the same rows whether or not this ran.
    const batch = new SyntheticData({ seed: opts.seed + 1, dim: opts.dim }).nextMemories(opts.chunk);
    store.rememberMany(batch);
    fts5.insert(batch);
  } finally {
    store.close();
    fts5.close();
  }
}

/** Fills `store` with `size` memories beside an FTS5 peer in `fts5File`, and times every figure. */
function benchSize(
  size: number,
  store: MemoryStore,
  fts5File: string,
  opts: Required<Omit<BenchOptions, "grid">>,
  log: (line: string) => void,
): SizeFigures {
  const fts5 = new Fts5Peer(fts5File, cheapTokenCounter);
  try {
    log(`N=${size}: ingesting into recollect and FTS5, batch by batch`);
    const residentBefore = settledRss();
    const data = new SyntheticData({ seed: opts.seed, dim: opts.dim });
    const ingestMs: number[] = [];
    const fts5Ms: number[] = [];
    for (let done = 0, round = 0; done < size; round++) {
      const batch = data.nextMemories(Math.min(opts.chunk, size - done));
      const sides = [() => store.rememberMany(batch), () => fts5.insert(batch)];
      const times = [ingestMs, fts5Ms];
      for (let k = 0; k < 2; k++) {
        const which = (round + k) % 2;
        const t = performance.now();
        sides[which]();
        times[which].push(performance.now() - t);
      }
      done += batch.length;
    }
    const peakAfterIngestMb = process.resourceUsage().maxRSS / 1024;
    const total = (ms: number[]) => ms.reduce((s, x) => s + x, 0);

    const queries = data.queries(Math.max(opts.queries, 1) + 8);
    const at = (i: number) => queries[i % queries.length];
    // FTS5 gets the words bm25 ranks by (stopwords dropped); queries with none are left out of both.
    const worded = queries.filter((q) => wordSet(q.text, { stopwords: true }).length > 0);
    const wordedAt = (i: number) => worded[i % worded.length];
    const budget = { count: opts.queries, budgetMs: opts.budgetMs };

    log(`N=${size}: stream retrieval (bm25) against FTS5 bm25() top 5`);
    const [stream, fts5Query] = timeInterleaved(
      [
        (i) => retrieve(store, request(wordedAt(i), streamBm25Policy)),
        (i) => fts5.topK(wordSet(wordedAt(i).text, { stopwords: true }), K),
      ],
      budget,
    );
    log(`N=${size}: full per-kind block`);
    const [full] = timeInterleaved([(i) => retrieve(store, request(at(i), fullPolicy))], budget);

    log(`N=${size}: embedding relevance against a one-pass floor`);
    const chunks = store.embeddings(BENCH_SCOPE)?.chunks ?? [];
    const floorPass = onePass(chunks);
    // At least EMBEDDING_ROUNDS rounds: at 3M one round takes about a second, and a ratio of ten
    // rounds moved by a tenth from run to run.
    const [embeddingMs, floorMs] = timeRounds(
      [(i) => retrieve(store, request(at(i), streamPreset)), floorPass],
      { ...budget, minRuns: Math.min(EMBEDDING_ROUNDS, opts.queries) },
    );
    const [embedding, floor] = [summarise(embeddingMs), summarise(floorMs)];

    const resident = residentGrowth(size, opts.dim, residentBefore, settledRss());
    return {
      size,
      ingest: summarise(ingestMs),
      ingestFts5: summarise(fts5Ms),
      stream,
      fts5: fts5Query,
      full,
      embedding,
      floor,
      simd: chunks.length > 0 && chunks[0].wasmMemory !== null,
      ingestPerSecond: { recollect: (size / total(ingestMs)) * 1000, fts5: (size / total(fts5Ms)) * 1000 },
      ratios: {
        streamVsFts5: fts5Query.p50 / stream.p50,
        ingestVsFts5: total(fts5Ms) / total(ingestMs),
        embeddingVsFloor: medianRatio(embeddingMs, floorMs),
        embeddingVsFloorP50: embedding.p50 / floor.p50,
      },
      rssMb: process.memoryUsage().rss / 2 ** 20,
      peakAfterIngestMb,
      resident,
    };
  } finally {
    fts5.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(fts5File + suffix, { force: true });
  }
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

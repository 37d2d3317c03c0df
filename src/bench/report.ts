/** The benchmark report as markdown (tables) and as JSON (every figure). */
import type { Latency } from "./stats.js";
import { type Cell, markdownTable } from "./format.js";
import type { BenchReport, SizeFigures } from "./run.js";

/** The targets: p50 in ms at a store size. */
const TARGETS: { label: string; size: number; limitMs: number; pick: (s: SizeFigures) => number }[] = [
  { label: "stream (bm25) p50", size: 100_000, limitMs: 5, pick: (s) => s.streamBm25.p50 },
  { label: "stream (bm25) p50", size: 1_000_000, limitMs: 50, pick: (s) => s.streamBm25.p50 },
  { label: "embedding p50", size: 100_000, limitMs: 15, pick: (s) => s.embedding.p50 },
  { label: "embedding p50", size: 1_000_000, limitMs: 100, pick: (s) => s.embedding.p50 },
  { label: "full policy p50", size: 100_000, limitMs: 10, pick: (s) => s.fullPolicy.p50 },
];
const SPEEDUP_TARGET = { size: 100_000, ratio: 20 };

const n = (size: number) => size.toLocaleString("en-US");
const runs = (l: Latency) => l.n;

export function renderMarkdown(report: BenchReport): string {
  const { machine, sizes } = report;
  const out: string[] = [];
  out.push("# recollect bench", "");
  out.push(
    `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node} (${machine.platform}). ` +
      `Seed ${report.options.seed}, ${report.options.dim}-dim embeddings, up to ${report.options.queries} queries ` +
      `per figure (fewer when a figure passes its ${report.options.budgetMs / 1000} s budget). Times in ms.`,
    "",
  );
  out.push("## Retrieval latency", "");
  out.push(
    "Stream = streamPreset with bm25 relevance (pooled score order, top 5, touch on). Naive = read the " +
      "scope's rows from SQLite, score in JS, sort, take 5 (and touch). Full = fullPolicy (per-kind block).",
    "",
  );
  out.push(
    markdownTable(
      ["N", "stream p50", "stream p95", "naive p50", "naive p95", "naive runs", "speedup (p50)", "same top 5", "full p50", "full p95"],
      sizes.map((s): Cell[] => [
        s.size,
        s.streamBm25.p50,
        s.streamBm25.p95,
        s.naive.p50,
        s.naive.p95,
        runs(s.naive),
        s.speedup,
        s.naiveAgrees ? "yes" : "NO",
        s.fullPolicy.p50,
        s.fullPolicy.p95,
      ]),
    ),
    "",
  );
  out.push("## Embedding relevance", "");
  out.push(
    "streamPreset (cosine over 384-dim vectors, top 5). Floors: one pass over the same Float32Array " +
      "(slot × dim), as a plain JS sum and as a SIMD sum; the SIMD sum is what memory bandwidth allows.",
    "",
  );
  out.push(
    markdownTable(
      ["N", "p50", "p95", "runs", "kernel", "plain sum p50", "SIMD sum p50", "p50 / SIMD sum"],
      sizes.map((s): Cell[] => [
        s.size,
        s.embedding.p50,
        s.embedding.p95,
        runs(s.embedding),
        s.simd ? "wasm SIMD" : "JS",
        s.plainSum.p50,
        s.simdSum?.p50 ?? null,
        s.simdSum ? s.embedding.p50 / s.simdSum.p50 : null,
      ]),
    ),
    "",
  );
  out.push("## Ingest and memory", "");
  out.push(
    markdownTable(
      ["N", "ingest (memories/s)", "ingest total (s)", "peak RSS after ingest (MB)", "RSS after queries (MB)"],
      sizes.map((s): Cell[] => [s.size, s.ingest.perSecond, s.ingest.ms / 1000, s.peakAfterIngestMb, s.rssMb]),
    ),
    "",
  );
  out.push(
    `Peak RSS of the whole run: ${Math.round(report.peakRssMb).toLocaleString("en-US")} MB (the naive baseline ` +
      `holds every row of the largest store at once). ` +
      `Ingest through rememberMany in transactions of ${n(report.options.chunk)}, with embeddings, line costs ` +
      `from a cheap counter (characters / 4). Token counting on ${n(report.tokeniser.sample)} memories: ` +
      `${Math.round(report.tokeniser.cheapPerSecond).toLocaleString("en-US")} memories/s with the cheap counter, ` +
      `${Math.round(report.tokeniser.gemmaPerSecond).toLocaleString("en-US")} memories/s with the Gemma tokenizer.`,
    "",
  );
  if (report.grid.length > 0) {
    out.push("## Experiment grid", "");
    out.push(
      markdownTable(
        ["experiment", "trials", "workers", "wall (s)"],
        report.grid.map((g): Cell[] => [g.experiment, g.trials, g.workers, g.wallMs / 1000]),
      ),
      "",
    );
  }
  out.push("## Targets", "");
  out.push(markdownTable(["target", "measured", "met"], targetRows(report)), "");
  out.push(`Bench wall time: ${(report.totalMs / 1000).toFixed(0)} s.`, "");
  return out.join("\n");
}

function targetRows(report: BenchReport): Cell[][] {
  const rows: Cell[][] = [];
  for (const t of TARGETS) {
    const s = report.sizes.find((x) => x.size === t.size);
    if (s) rows.push([`${t.label} ≤ ${t.limitMs} ms at N=${n(t.size)}`, t.pick(s), t.pick(s) <= t.limitMs ? "yes" : "no"]);
  }
  const s = report.sizes.find((x) => x.size === SPEEDUP_TARGET.size);
  if (s) rows.push([`stream speedup over naive ≥ ${SPEEDUP_TARGET.ratio}× at N=${n(s.size)}`, s.speedup, s.speedup >= SPEEDUP_TARGET.ratio ? "yes" : "no"]);
  return rows;
}

export function renderJson(report: BenchReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

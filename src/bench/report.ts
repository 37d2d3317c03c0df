/** The benchmark report as markdown (tables) and as JSON (every figure). */
import { type Cell, markdownTable } from "./format.js";
import type { BenchReport, SizeFigures } from "./run.js";
import type { Latency } from "./stats.js";

const n = (size: number) => size.toLocaleString("en-US");
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(", ");

/** The figures of one size, in table order. */
const FIGURES: { label: string; pick: (s: SizeFigures) => Latency }[] = [
  { label: "stream (bm25), top 5", pick: (s) => s.stream },
  { label: "FTS5 bm25() top 5", pick: (s) => s.fts5 },
  { label: "full per-kind block", pick: (s) => s.full },
  { label: "stream (embedding), top 5", pick: (s) => s.embedding },
  { label: "one-pass floor over the embeddings", pick: (s) => s.floor },
  { label: "ingest of one batch, no tokenising", pick: (s) => s.ingest },
  { label: "FTS5 insert of the same batch", pick: (s) => s.ingestFts5 },
];

/** The required ratios, checked at the sizes they name. */
function requirements(report: BenchReport): Cell[][] {
  const rows: Cell[][] = [];
  const at = (size: number) => report.sizes.find((s) => s.size === size);
  for (const size of [100_000, 1_000_000]) {
    const s = at(size);
    if (s) rows.push([`stream bm25 top 5 vs FTS5 top 5 at N=${n(size)} ≥ 1`, s.ratios.streamVsFts5, s.ratios.streamVsFts5 >= 1 ? "yes" : "NO"]);
  }
  const growth = report.fullGrowth.find((g) => g.from === 100_000 && g.to === 1_000_000);
  if (growth) rows.push(["full block p50, N=1,000,000 ÷ N=100,000 ≤ 12", growth.ratio, growth.ratio <= 12 ? "yes" : "NO"]);
  for (const s of report.sizes.filter((x) => x.size >= 100_000)) {
    rows.push([`ingest (no tokenising) vs FTS5 insert at N=${n(s.size)} ≥ 1`, s.ratios.ingestVsFts5, s.ratios.ingestVsFts5 >= 1 ? "yes" : "NO"]);
    rows.push([`embedding ÷ its floor (median of the rounds) at N=${n(s.size)} ≤ 1.15`, s.ratios.embeddingVsFloor, s.ratios.embeddingVsFloor <= 1.15 ? "yes" : "NO"]);
  }
  for (const s of report.sizes.filter((x) => x.size >= 1_000_000)) {
    const nonVector = s.resident.nonVectorPerMillionMb;
    rows.push([`RSS beside the vectors per million memories at N=${n(s.size)} < 290 MB`, nonVector, nonVector < 290 ? "yes" : "NO"]);
  }
  return rows;
}

export function renderMarkdown(report: BenchReport): string {
  const { machine, options, sizes } = report;
  const out: string[] = [];
  out.push("# recollect bench", "");
  out.push(
    `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node} (${machine.platform}). ` +
      `Load average (1, 5, 15 min) ${load(machine.loadAverage.start)} at the start, ${load(machine.loadAverage.end)} at the end. ` +
      `Seed ${options.seed}, ${options.dim}-dim embeddings, up to ${options.queries} queries per figure (fewer when a ` +
      `group of figures passes its ${options.budgetMs / 1000} s budget), batches of ${n(options.chunk)} memories. Times in ms.`,
    "",
  );
  out.push(
    "Stream = streamPreset (pooled score order, top 5, touch on) with bm25 or 384-dim embedding relevance. " +
      "FTS5 = the same rows in an SQLite FTS5 table (text indexed, every other column stored), `bm25()` top 5 for an " +
      "OR of the query's words. Full = fullPolicy (the per-kind block). The floor is one pass over the same " +
      "embeddings (a SIMD sum where the kernel is SIMD: the fastest read of the bytes found, in four streams). Figures compared with each other were interleaved query by " +
      "query (batch by batch for ingest) in this process, after untimed rounds (for ingest, one batch into a store and " +
      "an FTS5 table that are then thrown away), so that no figure includes compiling its code.",
    "",
  );
  out.push(
    markdownTable(
      ["N", "figure", "p50", "p95", "runs"],
      sizes.flatMap((s) => FIGURES.map((f): Cell[] => [s.size, f.label, f.pick(s).p50, f.pick(s).p95, f.pick(s).n])),
    ),
    "",
  );
  out.push("## Ratios", "");
  out.push(
    "Peer ÷ recollect: above 1 means recollect is faster. Embedding ÷ floor: 1 is the floor itself; the median of " +
      "each round's ratio (the two ran back to back), with the ratio of the two p50s beside it.",
    "",
  );
  out.push(
    markdownTable(
      ["N", "stream vs FTS5", "ingest vs FTS5", "embedding ÷ floor", "p50 ÷ p50", "kernel", "ingest/s", "FTS5 insert/s", "peak RSS after ingest (MB)"],
      sizes.map((s): Cell[] => [
        s.size,
        s.ratios.streamVsFts5,
        s.ratios.ingestVsFts5,
        s.ratios.embeddingVsFloor,
        s.ratios.embeddingVsFloorP50,
        s.simd ? "wasm SIMD" : "JS",
        s.ingestPerSecond.recollect,
        s.ingestPerSecond.fts5,
        s.peakAfterIngestMb,
      ]),
    ),
    "",
  );
  out.push("## Memory", "");
  out.push(
    "Growth of the process's RSS across each size's ingest and queries (each reading after a full garbage collection), " +
      `per million memories, in MB of 10⁶ bytes: in all, the ${options.dim}-dim float32 vectors' own bytes, and the rest ` +
      "(typed-array columns, postings, ids, rendered lines, SQLite's caches, spare score buffers, the FTS5 peer's cache).",
    "",
  );
  out.push(
    markdownTable(
      ["N", "RSS before (MB)", "RSS after (MB)", "per million (MB)", "vectors per million (MB)", "rest per million (MB)"],
      sizes.map((s): Cell[] => [s.size, s.resident.beforeMb, s.resident.afterMb, s.resident.perMillionMb, s.resident.vectorsPerMillionMb, s.resident.nonVectorPerMillionMb]),
    ),
    "",
  );
  if (report.fullGrowth.length > 0) {
    out.push("## Full block growth", "");
    out.push("The full block on two stores ten times apart, timed query by query in turn (linear growth gives about 10).", "");
    out.push(
      markdownTable(
        ["N", "p50 at N", "N × 10", "p50 at N × 10", "ratio"],
        report.fullGrowth.map((g): Cell[] => [g.from, g.fromP50, g.to, g.toP50, g.ratio]),
      ),
      "",
    );
  }
  out.push(
    `Token counting on ${n(report.tokeniser.sample)} memories: ${n(Math.round(report.tokeniser.cheapPerSecond))} memories/s ` +
      `with the cheap counter (characters / 4, used above), ${n(Math.round(report.tokeniser.gemmaPerSecond))} memories/s with the Gemma tokenizer. ` +
      `Peak RSS of the whole run: ${n(Math.round(report.peakRssMb))} MB.`,
    "",
  );
  if (report.grid.length > 0) {
    out.push("## Experiment grid", "");
    out.push(
      markdownTable(
        ["experiment", "trials", "workers", "wall (s)", "CPU (s)"],
        report.grid.map((g): Cell[] => [g.experiment, g.trials, g.workers, g.wallMs / 1000, g.cpuMs / 1000]),
      ),
      "",
    );
  }
  const required = requirements(report);
  if (required.length > 0) {
    out.push("## Required", "");
    out.push(markdownTable(["requirement", "measured", "met"], required), "");
  }
  out.push(`Bench wall time: ${(report.totalMs / 1000).toFixed(0)} s; CPU time (user and system, every thread): ${(report.totalCpuMs / 1000).toFixed(0)} s.`, "");
  return out.join("\n");
}

export function renderJson(report: BenchReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

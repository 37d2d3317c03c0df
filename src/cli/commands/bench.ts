import { join } from "node:path";
import { renderConversationBench, runConversationBench } from "../../bench/conversation-bench.js";
import { renderEncoderBench, runEncoderBench } from "../../bench/encoder.js";
import { renderJson, renderMarkdown } from "../../bench/report.js";
import { defaultGridWorkers, runBench } from "../../bench/run.js";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";
import type { BenchArgs, Log } from "../app.js";

/**
 * Measures retrieval latency and ingest rate at each store size against SQLite FTS5 and the
 * embedding floor (and, with --grid, the core grid's wall time); prints markdown tables and writes
 * <out>/bench.md and <out>/bench.json. Timings vary from run to run, so the output is a local
 * report, not a checked one. The CLI has checked the sizes and the query count.
 */
export async function benchCommand(args: BenchArgs, log: Log): Promise<void> {
  const grid = args.grid ? { file: "experiments/core.yaml", workers: defaultGridWorkers() } : null;
  const report = await runBench({ sizes: args.sizes, queries: args.queries, grid }, (line) => log(`bench: ${line}`));
  const conversations = args.conversations === false ? [] : await runConversationBench((line) => log(`bench: ${line}`));
  const encoder = args.embeddingTexts > 0 ? await runEncoderBench(args.embeddingTexts, (line) => log(`bench: ${line}`)) : undefined;
  const markdown =
    renderMarkdown(report) +
    (conversations.length > 0 ? `\n${renderConversationBench(conversations)}` : "") +
    (encoder === undefined ? "" : `\n${renderEncoderBench(encoder)}`);
  log(markdown);
  writeFileAtomicSync(join(args.out, "bench.md"), markdown);
  const extras = { ...(conversations.length > 0 ? { conversations } : {}), ...(encoder === undefined ? {} : { encoder }) };
  writeFileAtomicSync(join(args.out, "bench.json"), renderJson({ ...report, ...extras }));
  log(`bench: wrote ${join(args.out, "bench.md")} and ${join(args.out, "bench.json")}`);
}

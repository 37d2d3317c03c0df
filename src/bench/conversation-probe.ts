/**
 * Runs one measured step in a process of its own, so the peak memory it reports is the step's:
 * importing a conversation file, or a whole `recollect` command line (which runs exactly as the
 * CLI does: main.ts is loaded with these arguments). When the process exits it writes wall time
 * and peak RSS (worker threads included: they share the process) as JSON to RESULT. Started by
 * conversation-bench.ts; not a user command.
 *
 *   conversation-probe.ts RESULT import FILE
 *   conversation-probe.ts RESULT cli ARGS...
 */
import { writeFileSync } from "node:fs";
import { importConversations } from "../datasets/conversations/index.js";

export interface ProbeResult {
  wallMs: number;
  peakRssMb: number;
  exitCode: number;
  /** What an import read, for the report. */
  summary?: string;
}

const started = performance.now();
const [result, step, ...rest] = process.argv.slice(2);
let summary: string | undefined;
process.on("exit", (code) => {
  const probe: ProbeResult = { wallMs: performance.now() - started, peakRssMb: process.resourceUsage().maxRSS / 1024, exitCode: code, summary };
  writeFileSync(result, JSON.stringify(probe));
});

if (step === "import") {
  const { stats } = await importConversations(rest[0]);
  summary = `${stats.conversations} conversations, ${stats.sessions} sessions, ${stats.turns} turns`;
} else if (step === "cli") {
  process.argv = [process.argv[0], "recollect", ...rest];
  await import(new URL("../cli/main.ts", import.meta.url).href);
} else {
  throw new Error(`unknown probe step ${JSON.stringify(step)}`);
}

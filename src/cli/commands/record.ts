/**
 * `npm run record`: re-records the answer-level evaluation against a live Ollama server. Every
 * model call is stored in the recording set, the graded answers are written to the results, and
 * the reports are regenerated from the files on disk, as `npm run experiment` does. The server
 * is checked first, so a stopped server fails fast with the one-line server-down message (exit 2).
 * Paths are relative to the working folder, as for every other command.
 */
import { answerPath, runAnswerEvaluation } from "../../harness/answers/run.js";
import { writeAnswers } from "../../harness/answers/io.js";
import { ANSWER_RUN, type AnswerRunSpec } from "../../harness/answers/spec.js";
import { OllamaClient } from "../../model/client.js";
import { checkServer } from "../../model/server-check.js";
import { describeWrite, writeReports } from "../../report/write.js";
import { plural } from "../../shared/errors.js";
import type { RecordArgs } from "../app.js";
import type { Progress } from "../progress.js";
import { renderRecordedReports } from "./reports.js";

export interface RecordOptions {
  /** The run to record; ANSWER_RUN by default (its seed count is replaced by --seeds). */
  spec?: AnswerRunSpec;
  env?: Record<string, string | undefined>;
  /** Stamps each recorded call; the wall clock by default. */
  timestamp?: () => string;
}

export async function recordCommand(args: RecordArgs, bar: Progress, options: RecordOptions = {}): Promise<void> {
  const live = new OllamaClient({ host: args.host, env: options.env, timeoutMs: args.timeoutMs, maxReplyBytes: args.maxReplyBytes });
  await checkServer(live, [args.model]);

  const root = process.cwd();
  const spec = { ...(options.spec ?? ANSWER_RUN), seeds: args.seeds };
  const log = (line: string) => bar.log(line);
  bar.phase("answers", undefined, "trials", "checking the recordings");
  const outcome = await runAnswerEvaluation({
    root,
    spec,
    mode: "record",
    live,
    model: args.model,
    timestamp: options.timestamp ?? (() => new Date().toISOString()),
    onTrial: (done, total) => bar.update(done, "", total),
  });
  // Only a replay is skipped (when nothing is recorded); a recording run always runs.
  if ("skipped" in outcome) throw new Error(`record mode was skipped: ${outcome.skipped}`);
  const { results, droppedRecordings } = outcome;
  writeAnswers(answerPath(root, spec.results), results);
  const asks = results.trials.reduce((sum, t) => sum + t.asks.length, 0);
  log(
    `answers: ${plural(results.trials.length, "trial")}, ${plural(asks, "graded answer")} from ${args.model}; ` +
      `${spec.recordings} holds ${plural(results.manifest.recordings.calls, "call")}` +
      `${droppedRecordings > 0 ? ` (${droppedRecordings} no longer used were dropped)` : ""}; ${spec.results} written`,
  );
  log(`answers: importance rated ${plural(results.importance.rated, "time")}, ${results.importance.fallbacks} fell back to the default`);

  log(describeWrite(writeReports(await renderRecordedReports(bar, { dir: root, project: true }), root)));
}

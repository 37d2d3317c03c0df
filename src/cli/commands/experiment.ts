import { join } from "node:path";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";
import { readResults, serialiseResults, writeResults } from "../../harness/results/io.js";
import { removeJournal } from "../../harness/runner/run.js";
import { describeWrite, writeReports } from "../../report/write.js";
import { plural } from "../../shared/errors.js";
import type { ExperimentArgs } from "../app.js";
import type { Progress } from "../progress.js";
import { markShard } from "./merge.js";
import { experimentFiles, JOURNAL_DIR, loadOrSkip, RESULTS_DIR, recordedResultFiles, resultsFile, runExperiment } from "./pipeline.js";
import { renderRecordedReports, sharedReportsExist } from "./reports.js";

export type Log = (line: string) => void;

/** Warnings go to standard error, beside the progress, so standard output stays the run's record. */
const warnOnStderr: Log = (line) => process.stderr.write(`recollect: warning: ${line}\n`);

/**
 * Runs experiments, records their results, then regenerates the reports from results/. A run of
 * named experiments regenerates their own charts, and the files that cover every experiment
 * (EVALUATION.md, the HTML report) only when its results changed or those files are missing.
 */
export async function experimentCommand(args: ExperimentArgs, bar: Progress, root = process.cwd(), warn: Log = warnOnStderr): Promise<void> {
  const explicit = args.files.length > 0;
  // Load (and so validate) every file before running any, so a bad file costs no run time and
  // writes nothing: the experiments, and the recorded results the reports are rendered from.
  const experiments = experimentFiles(args.files).map((file) => ({ file, loaded: loadOrSkip(file, args, explicit) }));
  for (const file of recordedResultFiles()) readResults(file);
  const ran: string[] = [];
  let changed = false;
  for (const { file, loaded } of experiments) {
    if ("skipped" in loaded) {
      bar.log(`skipped ${file}: ${loaded.skipped}`);
      continue;
    }
    const results = await runExperiment(
      loaded,
      { workers: args.workers, journalDir: args.resume ? JOURNAL_DIR : undefined, shard: args.shard, onWarning: warn },
      bar,
    );
    if (args.shard) {
      const out = join(RESULTS_DIR, "shards", `${loaded.spec.name}.${args.shard.index}-of-${args.shard.count}.json`);
      writeFileAtomicSync(out, serialiseResults(markShard(results, args.shard)));
      removeJournal(JOURNAL_DIR, loaded, args.shard);
      bar.log(`${loaded.spec.name}: shard ${args.shard.index}/${args.shard.count} written to ${out}; combine the shards with \`npm run merge\``);
      continue;
    }
    const outcome = writeResults(resultsFile(loaded.spec.name), results);
    removeJournal(JOURNAL_DIR, loaded);
    ran.push(loaded.spec.name);
    changed ||= outcome === "written";
    bar.log(`${loaded.spec.name}: ${plural(results.trials.length, "trial")} in ${(results.manifest.wallTimeMs / 1000).toFixed(1)} s; ${resultsFile(loaded.spec.name)} ${outcome}`);
  }
  if (args.shard) return;
  const shared = !explicit || changed || !sharedReportsExist(root);
  const rendered = await renderRecordedReports(bar, root, { experiments: explicit ? ran : undefined, shared });
  bar.log(describeWrite(writeReports(rendered, root)));
  if (!shared) bar.log("reports: EVALUATION.md and the HTML report left as they are: the results they show did not change");
}

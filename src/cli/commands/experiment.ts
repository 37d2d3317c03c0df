import { join } from "node:path";
import { TrialPool } from "../../harness/runner/pool.js";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";
import { readResults, serialiseResults, writeResults } from "../../harness/results/io.js";
import type { ExperimentResults } from "../../harness/results/types.js";
import { journalFile, removeJournal } from "../../harness/runner/run.js";
import { describeWrite, writeReports } from "../../report/write.js";
import { plural } from "../../shared/errors.js";
import type { ExperimentArgs, Log } from "../app.js";
import type { SavedWork } from "../interrupt.js";
import type { Progress } from "../progress.js";
import { markShard } from "./merge.js";
import {
  EXPERIMENTS_DIR,
  importLines,
  JOURNAL_DIR,
  loadRuns,
  type Output,
  outputFor,
  recordedResultFiles,
  RESULTS_DIR,
  resultsFile,
  runExperiment,
  warnOnStderr,
} from "./pipeline.js";
import { renderRecordedReports, sharedReportsExist } from "./reports.js";

/** Says how many trials a failing system skipped, with the first failure's words. */
export function logSkipped(results: ExperimentResults, log: Log): void {
  const skipped = results.trials.filter((t) => t.skipped !== undefined);
  if (skipped.length === 0) return;
  log(`${results.experiment.name}: skipped ${plural(skipped.length, "trial")} whose system failed (scored as empty retrievals); the first: ${skipped[0].skipped!.message}`);
}

/** How many trials this process ran and in how long: "20 trials in 4.1 s (and 480 done before, from the journal)". */
export function ranLine(results: ExperimentResults, resumed: number): string {
  const ran = `${plural(results.trials.length - resumed, "trial")} in ${(results.manifest.wallTimeMs / 1000).toFixed(1)} s`;
  return resumed === 0 ? ran : `${ran} (and ${resumed} done before, from the journal)`;
}

/** An output folder and what this run did to it. */
interface Touched {
  output: Output;
  ran: string[];
  changed: boolean;
}

/**
 * Runs experiments, records their results, then regenerates the reports of each output folder
 * from the results recorded there (see pipeline.ts for where that is). A run of named experiments
 * regenerates their own charts, and the files that cover every experiment (EVALUATION.md, the HTML
 * report) only when its results changed or those files are missing.
 */
export async function experimentCommand(args: ExperimentArgs, bar: Progress, saved: SavedWork, warn: Log = warnOnStderr): Promise<void> {
  const explicit = args.files.length > 0;
  const experiments = await loadRuns(args, warn);
  if (args.shard?.source !== undefined) bar.log(`--shard auto: running shard ${args.shard.index}/${args.shard.count}, as ${args.shard.source} says`);
  const touched = new Map<string, Touched>();
  const touch = (output: Output) => touched.get(output.dir) ?? touched.set(output.dir, { output, ran: [], changed: false }).get(output.dir)!;
  // A run of the whole project refreshes its reports even when every experiment was skipped.
  if (!explicit) touch(outputFor(`${EXPERIMENTS_DIR}/any.yaml`, args.out));
  // The recorded results the reports are rendered from, read now: a damaged one is named before
  // any run, and nothing is written.
  for (const dir of new Set([...experiments.map((e) => e.output.dir), ...touched.keys()])) {
    for (const file of recordedResultFiles(dir)) readResults(file);
  }
  const imports = importLines(experiments.flatMap(({ loaded }) => ("skipped" in loaded ? [] : [loaded])));
  // One set of worker threads for every experiment, rather than one started for each.
  const pool = new TrialPool(args.workers);
  try {
    for (const { file, loaded, output } of experiments) {
      if ("skipped" in loaded) {
        bar.log(`skipped ${file}: ${loaded.skipped}`);
        continue;
      }
      const imported = imports.get(loaded);
      if (imported) bar.log(imported);
      const journalDir = join(output.dir, JOURNAL_DIR);
      // Starting afresh drops an interrupted run's journal, and journals this run, so that it too resumes.
      if (!args.resume) removeJournal(journalDir, loaded, args.shard);
      const name = loaded.spec.name;
      saved.running(name, journalFile(journalDir, loaded, args.shard), undefined);
      let resumed = 0;
      const results = await runExperiment(
        loaded,
        {
          workers: args.workers,
          pool,
          journalDir,
          shard: args.shard,
          onResume: (journalled, total, journal) => {
            resumed = journalled;
            saved.running(name, journal, total, journalled);
            bar.log(`${name}: resuming an interrupted run: ${journalled} of ${plural(total, "trial")} are done (${journal}); running the other ${total - journalled}`);
          },
          onProgress: (done, total) => saved.progress(done, total),
          onWarning: warn,
          skipOnSystemError: args.onSystemError === "skip",
          ...(args.embeddingCache === undefined ? {} : { embeddingCache: args.embeddingCache }),
        },
        bar,
      );
      if (args.shard) {
        const out = join(output.dir, RESULTS_DIR, "shards", `${loaded.spec.name}.${args.shard.index}-of-${args.shard.count}.json`);
        writeFileAtomicSync(out, serialiseResults(markShard(results, args.shard)));
        saved.wrote(out);
        removeJournal(journalDir, loaded, args.shard);
        bar.log(`${loaded.spec.name}: shard ${args.shard.index}/${args.shard.count} written to ${out}; combine the shards with \`npm run merge\``);
        continue;
      }
      const recordedFile = resultsFile(loaded.spec.name, output.dir);
      const outcome = writeResults(recordedFile, results);
      saved.wrote(recordedFile);
      removeJournal(journalDir, loaded);
      const state = touch(output);
      state.ran.push(name);
      state.changed ||= outcome === "written";
      bar.log(`${name}: ${ranLine(results, resumed)}; ${recordedFile} ${outcome}`);
      logSkipped(results, bar.log.bind(bar));
    }
  } finally {
    await pool.close();
  }
  if (args.shard) return;
  for (const { output, ran, changed } of touched.values()) {
    const shared = !explicit || changed || !sharedReportsExist(output.dir);
    const rendered = await renderRecordedReports(bar, output, { experiments: explicit ? ran : undefined, shared });
    const line = describeWrite(writeReports(rendered, output.dir));
    bar.log(output.project ? line : line.replace(/^reports:/, `reports in ${output.dir}:`));
    if (!shared) bar.log("reports: EVALUATION.md and the HTML report left as they are: the results they show did not change");
  }
}

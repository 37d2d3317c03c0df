import { join } from "node:path";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";
import { readResults, serialiseResults, writeResults } from "../../harness/results/io.js";
import { removeJournal } from "../../harness/runner/run.js";
import { renderReports, writeReports } from "../../report/render.js";
import type { ExperimentArgs } from "../app.js";
import {
  EXPERIMENTS_DIR,
  experimentFiles,
  importLine,
  JOURNAL_DIR,
  loadOrSkip,
  type Output,
  outputFor,
  RESULTS_DIR,
  recordedResultFiles,
  resultsFile,
  runExperiment,
} from "./pipeline.js";

export type Log = (line: string) => void;

/**
 * Runs experiments, records their results, then regenerates every report from the results in
 * the same output folder (see pipeline.ts for where that is).
 */
export async function experimentCommand(args: ExperimentArgs, log: Log): Promise<void> {
  const explicit = args.files.length > 0;
  // Load (and so validate) every file before running any, so a bad file costs no run time.
  const experiments = [];
  for (const file of experimentFiles(args.files)) {
    experiments.push({ file, loaded: await loadOrSkip(file, args, explicit), output: outputFor(file, args.out) });
  }
  const outputs = new Map<string, Output>();
  // A run of the whole project refreshes its reports even when every experiment was skipped.
  if (!explicit) {
    const whole = outputFor(`${EXPERIMENTS_DIR}/any.yaml`, args.out);
    outputs.set(whole.dir, whole);
  }
  for (const { file, loaded, output } of experiments) {
    if ("skipped" in loaded) {
      log(`skipped ${file}: ${loaded.skipped}`);
      continue;
    }
    const imported = importLine(loaded);
    if (imported) log(imported);
    const journalDir = join(output.dir, JOURNAL_DIR);
    const results = await runExperiment(loaded, {
      workers: args.workers,
      journalDir: args.resume ? journalDir : undefined,
      shard: args.shard,
    });
    if (args.shard) {
      const out = join(output.dir, RESULTS_DIR, "shards", `${loaded.spec.name}.${args.shard.index}-of-${args.shard.count}.json`);
      writeFileAtomicSync(out, serialiseResults(results));
      removeJournal(journalDir, loaded, args.shard);
      log(`${loaded.spec.name}: shard ${args.shard.index}/${args.shard.count} written to ${out}; combine the shards with \`npm run merge\``);
      continue;
    }
    const recordedFile = resultsFile(loaded.spec.name, output.dir);
    const outcome = writeResults(recordedFile, results);
    removeJournal(journalDir, loaded);
    outputs.set(output.dir, output);
    log(`${loaded.spec.name}: ${results.trials.length} trials in ${(results.manifest.wallTimeMs / 1000).toFixed(1)} s; ${recordedFile} ${outcome}`);
  }
  if (args.shard) return;
  for (const output of outputs.values()) {
    const recorded = recordedResultFiles(output.dir).map((f) => readResults(f)!);
    const changed = writeReports(await renderReports(recorded, output.dir, { project: output.project }), output.dir);
    const where = output.project ? "reports" : `reports in ${output.dir}`;
    log(changed.length === 0 ? `${where}: up to date` : `${where}: wrote ${changed.join(", ")}`);
  }
}

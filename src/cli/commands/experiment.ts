import { join } from "node:path";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";
import { readResults, serialiseResults, writeResults } from "../../harness/results/io.js";
import { removeJournal } from "../../harness/runner/run.js";
import { describeWrite, renderReports, writeReports } from "../../report/render.js";
import type { ExperimentArgs } from "../app.js";
import { experimentFiles, JOURNAL_DIR, loadOrSkip, RESULTS_DIR, recordedResultFiles, resultsFile, runExperiment } from "./pipeline.js";

export type Log = (line: string) => void;

/** Runs experiments, records their results, then regenerates every report from results/. */
export async function experimentCommand(args: ExperimentArgs, log: Log, root = process.cwd()): Promise<void> {
  const explicit = args.files.length > 0;
  // Load (and so validate) every file before running any, so a bad file costs no run time.
  const experiments = experimentFiles(args.files).map((file) => ({ file, loaded: loadOrSkip(file, args, explicit) }));
  for (const { file, loaded } of experiments) {
    if ("skipped" in loaded) {
      log(`skipped ${file}: ${loaded.skipped}`);
      continue;
    }
    const results = await runExperiment(loaded, {
      workers: args.workers,
      journalDir: args.resume ? JOURNAL_DIR : undefined,
      shard: args.shard,
    });
    if (args.shard) {
      const out = join(RESULTS_DIR, "shards", `${loaded.spec.name}.${args.shard.index}-of-${args.shard.count}.json`);
      writeFileAtomicSync(out, serialiseResults(results));
      removeJournal(JOURNAL_DIR, loaded, args.shard);
      log(`${loaded.spec.name}: shard ${args.shard.index}/${args.shard.count} written to ${out}; combine the shards with \`npm run merge\``);
      continue;
    }
    const outcome = writeResults(resultsFile(loaded.spec.name), results);
    removeJournal(JOURNAL_DIR, loaded);
    log(`${loaded.spec.name}: ${results.trials.length} trials in ${(results.manifest.wallTimeMs / 1000).toFixed(1)} s; ${resultsFile(loaded.spec.name)} ${outcome}`);
  }
  if (args.shard) return;
  const recorded = recordedResultFiles().map((f) => readResults(f)!);
  log(describeWrite(writeReports(await renderReports(recorded, root), root)));
}

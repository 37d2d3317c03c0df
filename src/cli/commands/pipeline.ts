import { existsSync } from "node:fs";
import { join } from "node:path";
import { globSync } from "tinyglobby";
import { loadGemmaTokenizer } from "../../memory/index.js";
import { type Experiment, loadExperiment } from "../../harness/experiment/load.js";
import { buildManifest } from "../../harness/results/manifest.js";
import { buildResults } from "../../harness/results/build.js";
import type { ExperimentResults } from "../../harness/results/types.js";
import { type RunOptions, runTrials } from "../../harness/runner/run.js";
import type { DataArgs } from "../app.js";
import type { Progress } from "../progress.js";
import { datasetResolver, missingDataset } from "./datasets.js";

export const RESULTS_DIR = "results";
export const JOURNAL_DIR = ".recollect/journal";
export const resultsFile = (name: string) => join(RESULTS_DIR, `${name}.json`);

/** The experiment files a command works on: those named, or every file in experiments/. */
export function experimentFiles(files: string[]): string[] {
  return files.length > 0 ? files : globSync("experiments/*.yaml").sort();
}

/**
 * Loads an experiment, or says why it must be skipped: with no files named, an experiment whose
 * dataset is absent is skipped with a message; named explicitly, the missing data is an error.
 */
export function loadOrSkip(file: string, data: DataArgs, explicit: boolean): Experiment | { skipped: string } {
  if (!explicit) {
    const reason = missingDataset(file, data);
    if (reason) return { skipped: reason };
  }
  return loadExperiment(file, datasetResolver(data));
}

/** Runs an experiment's trials, reporting them on `bar` as a phase named after the experiment. */
export async function runExperiment(experiment: Experiment, options: RunOptions, bar: Progress): Promise<ExperimentResults> {
  const started = performance.now();
  bar.phase(experiment.spec.name, undefined, "trials", "starting workers");
  let before: number | undefined;
  const trials = await runTrials(experiment, {
    ...options,
    onProgress: (done, total) => {
      // Until a trial of this run finishes, the workers are still starting.
      before ??= done;
      bar.update(done, done > before ? "" : "starting workers", total);
    },
  });
  bar.update(trials.length, "recording the manifest");
  const tokenizer = await loadGemmaTokenizer();
  const manifest = buildManifest({
    tokenizerSha256: tokenizer.sha256,
    datasets: experiment.datasets,
    experimentHash: experiment.hash,
    wallTimeMs: performance.now() - started,
  });
  return buildResults(experiment, trials, manifest);
}

export function recordedResultFiles(): string[] {
  return existsSync(RESULTS_DIR) ? globSync(`${RESULTS_DIR}/*.json`).sort() : [];
}

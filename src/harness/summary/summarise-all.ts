/**
 * The summaries of several experiments, the largest on a thread of its own while this thread
 * summarises the others. The statistics of a report are single-threaded and, for a benchmark as
 * large as LoCoMo, take seconds an experiment, while every other core waits; summarise is a pure
 * function of the results and the seed, so where an experiment is summarised changes no figure.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ExperimentResults } from "../results/types.js";
import { summarise, type SummariseOptions } from "./summarise.js";
import type { ExperimentSummary } from "./types.js";

/**
 * Asks (each ask of each trial) an experiment must have for a thread of its own: starting one
 * loads the TypeScript loader and the statistics, about a second of CPU, which a smaller
 * experiment's summary does not repay.
 */
export const THREAD_MIN_ASKS = 20_000;

export interface SummariseAllOptions {
  /** Called as each experiment's summary begins, in the order of `results`. */
  onStart?: (name: string) => void;
  /** Whether a thread may take the largest experiment (default: when the machine has more than one core). */
  thread?: boolean;
  /** Overrides THREAD_MIN_ASKS (tests). */
  threadMinAsks?: number;
}

/** summarise(results[i], options) for each i, in order. */
export async function summariseAll(results: readonly ExperimentResults[], options: SummariseOptions, all: SummariseAllOptions = {}): Promise<ExperimentSummary[]> {
  const asks = results.map((r) => r.trials.reduce((sum, trial) => sum + trial.asks.length, 0));
  const largest = asks.indexOf(Math.max(...asks));
  const threaded =
    results.length > 1 && (all.thread ?? availableParallelism() > 1) && asks[largest]! >= (all.threadMinAsks ?? THREAD_MIN_ASKS) ? largest : -1;
  // The thread starts first, so that it works while this thread summarises the rest.
  const onThread = threaded < 0 ? null : (all.onStart?.(results[threaded]!.experiment.name), summariseOnThread(results[threaded]!, options));
  // Should this thread's own statistics throw first, the thread's failure is not left unhandled.
  onThread?.catch(() => undefined);
  const summaries = results.map((r, i) => {
    if (i === threaded) return onThread!;
    all.onStart?.(r.experiment.name);
    return summarise(r, options);
  });
  return Promise.all(summaries);
}

function summariseOnThread(results: ExperimentResults, options: SummariseOptions): Promise<ExperimentSummary> {
  const worker = new Worker(new URL("./summarise-worker.mjs", import.meta.url));
  return new Promise<ExperimentSummary>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the statistics thread of experiment "${results.experiment.name}" stopped with exit code ${code}`)));
    worker.once("message", (reply: { summary: ExperimentSummary } | { error: string }) => {
      if ("summary" in reply) resolve(reply.summary);
      else reject(new Error(`the statistics of experiment "${results.experiment.name}" failed on their thread: ${reply.error}`));
    });
    worker.postMessage({ results, options });
  }).finally(() => void worker.terminate());
}

import { gemmaTokenizer, tokenizerSha256 } from "../../memory/index.js";
import { isRecollectError } from "../../shared/errors.js";
import type { Trial } from "../results/types.js";
import { SystemHost } from "../systems/host.js";
import type { NamedPolicy } from "../systems/recollect.js";
import { ScenarioCache, type ScenarioRef } from "./pack.js";
import { type CachingCounter, cachingCounter } from "./token-cache.js";
import { runTrial, runTrialUnder, type TrialInput } from "./trial.js";

/**
 * What crosses to a worker for one trial: the trial's settings, and where its scenario lies in
 * shared memory. With `under`, one pass of the timeline ranks each ask under every one of those
 * policies (see runTrialUnder) and gives a trial for each.
 */
export type TrialTask = Omit<TrialInput, "scenario"> & { scenario: ScenarioRef; under?: NamedPolicy[] };

/**
 * What crosses to a worker at a time: several trials, so that the messages and the pool's
 * bookkeeping per task are paid once per batch rather than once per trial, and the token-count
 * cache the returned blocks are priced through (none: counted in this thread alone).
 */
export interface TaskBatch {
  tasks: TrialTask[];
  tokenCache?: string;
}

/**
 * What a thread keeps across its trials: decoded scenarios, the systems it started, and the
 * counters that price returned blocks, one per cache file (the tokenizer loaded only for a block
 * no cache holds the count of).
 */
export class ThreadState {
  readonly scenarios = new ScenarioCache();
  readonly host = new SystemHost();
  private readonly counters = new Map<string | undefined, CachingCounter>();

  /** The counter of returned blocks under the cache file `tokenCache`. */
  blockTokens(tokenCache?: string): CachingCounter {
    let counter = this.counters.get(tokenCache);
    if (counter === undefined) {
      counter = cachingCounter({ sha256: tokenizerSha256(), load: gemmaTokenizer }, tokenCache);
      this.counters.set(tokenCache, counter);
    }
    return counter;
  }

  /** Runs a batch's trials one after another, and stores the block counts they made. */
  async runBatch(batch: TaskBatch): Promise<Trial[]> {
    const trials: Trial[] = [];
    try {
      for (const task of batch.tasks) trials.push(...(await runTrialTask(task, this, batch.tokenCache)));
    } finally {
      this.blockTokens(batch.tokenCache).flush();
    }
    return trials;
  }

  /** Ends the systems this thread started (a subprocess exits), and closes its cache files. */
  shutdown(): Promise<void> {
    for (const counter of this.counters.values()) counter.close();
    this.counters.clear();
    return this.host.shutdown();
  }
}

/** One state per thread: the worker's own, or the caller's when trials run in the main thread. */
const workerState = new ThreadState();

export async function runTrialTask(task: TrialTask, state: ThreadState = workerState, tokenCache?: string): Promise<Trial[]> {
  const { spec, tokens, vectors } = state.scenarios.get(task.scenario);
  const { under, ...input } = task;
  const trialInput = { ...input, scenario: spec };
  if (under !== undefined) return runTrialUnder(trialInput, under, { tokens, vectors, host: state.host });
  const blockTokens = async () => state.blockTokens(tokenCache);
  return [await runTrial(trialInput, { tokens, vectors, host: state.host, blockTokens })];
}

/** The batch's trials, or the message of the RecollectError it stopped with. */
export type TrialOutcome = { trials: Trial[] } | { userError: string };

/**
 * The worker pool's entry point. A RecollectError is returned, not thrown: an error thrown in a
 * worker thread reaches the main thread as a plain Error, and the CLI would take it for a bug.
 */
export default async function runBatchInWorker(batch: TaskBatch): Promise<TrialOutcome> {
  try {
    return { trials: await workerState.runBatch(batch) };
  } catch (error) {
    if (isRecollectError(error)) return { userError: error.message };
    throw error;
  }
}

/** Called by the pool before it ends a worker: a subprocess the worker started must not outlive it. */
export async function teardown(): Promise<void> {
  await workerState.shutdown();
}

import { loadGemmaTokenizer, type TokenCounter } from "../../memory/index.js";
import { isRecollectError } from "../../shared/errors.js";
import type { Trial } from "../results/types.js";
import { SystemHost } from "../systems/host.js";
import type { NamedPolicy } from "../systems/recollect.js";
import { ScenarioCache, type ScenarioRef } from "./pack.js";
import { memoisedCounter } from "./token-counts.js";
import { runTrial, runTrialUnder, type TrialInput } from "./trial.js";

/**
 * What crosses to a worker for one trial: the trial's settings, and where its scenario lies in
 * shared memory. With `under`, one pass of the timeline ranks each ask under every one of those
 * policies (see runTrialUnder) and gives a trial for each.
 */
export type TrialTask = Omit<TrialInput, "scenario"> & { scenario: ScenarioRef; under?: NamedPolicy[] };

/**
 * What a thread keeps across its trials: decoded scenarios, the systems it started, and the
 * tokenizer that prices returned blocks (loaded on first need).
 */
export class ThreadState {
  readonly scenarios = new ScenarioCache();
  readonly host = new SystemHost();
  private tokenizer: Promise<TokenCounter> | undefined;

  readonly blockTokens = (): Promise<TokenCounter> => {
    this.tokenizer ??= loadGemmaTokenizer().then(memoisedCounter);
    return this.tokenizer;
  };

  /** Ends the systems this thread started (a subprocess exits). */
  shutdown(): Promise<void> {
    return this.host.shutdown();
  }
}

/** One state per thread: the worker's own, or the caller's when trials run in the main thread. */
const workerState = new ThreadState();

export async function runTrialTask(task: TrialTask, state: ThreadState = workerState): Promise<Trial[]> {
  const { spec, tokens, vectors } = state.scenarios.get(task.scenario);
  const { under, ...input } = task;
  const trialInput = { ...input, scenario: spec };
  if (under !== undefined) return runTrialUnder(trialInput, under, { tokens, vectors, host: state.host });
  return [await runTrial(trialInput, { tokens, vectors, host: state.host, blockTokens: state.blockTokens })];
}

/** The task's trials, or the message of the RecollectError it stopped with. */
export type TrialOutcome = { trials: Trial[] } | { userError: string };

/**
 * The worker pool's entry point. A RecollectError is returned, not thrown: an error thrown in a
 * worker thread reaches the main thread as a plain Error, and the CLI would take it for a bug.
 */
export default async function runTrialInWorker(task: TrialTask): Promise<TrialOutcome> {
  try {
    return { trials: await runTrialTask(task) };
  } catch (error) {
    if (isRecollectError(error)) return { userError: error.message };
    throw error;
  }
}

/** Called by the pool before it ends a worker: a subprocess the worker started must not outlive it. */
export async function teardown(): Promise<void> {
  await workerState.shutdown();
}

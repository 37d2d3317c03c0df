import { isUserError } from "../../shared/errors.js";
import type { Trial } from "../results/types.js";
import { ScenarioCache, type ScenarioRef } from "./pack.js";
import { runTrial, type TrialInput } from "./trial.js";

/** What crosses to a worker for one trial: the trial's settings, and where its scenario lies in shared memory. */
export type TrialTask = Omit<TrialInput, "scenario"> & { scenario: ScenarioRef };

/** One cache per thread: the worker's own, or the caller's when trials run in the main thread. */
const workerCache = new ScenarioCache();

export function runTrialTask(task: TrialTask, cache: ScenarioCache = workerCache): Trial {
  const { spec, tokens } = cache.get(task.scenario);
  return runTrial({ ...task, scenario: spec }, tokens);
}

/** A trial, or the message of the UserError it stopped with. */
export type TrialOutcome = { trial: Trial } | { userError: string };

/**
 * The worker pool's entry point. A UserError is returned, not thrown: an error thrown in a worker
 * thread reaches the main thread as a plain Error, and the CLI would take it for a bug.
 */
export default async function runTrialInWorker(task: TrialTask): Promise<TrialOutcome> {
  try {
    return { trial: runTrialTask(task) };
  } catch (error) {
    if (isUserError(error)) return { userError: error.message };
    throw error;
  }
}

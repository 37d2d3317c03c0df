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

/** The worker pool's entry point. */
export default async function runTrialInWorker(task: TrialTask): Promise<Trial> {
  return runTrialTask(task);
}

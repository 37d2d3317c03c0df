/** Wall time of a whole experiment grid through the harness, at a given worker count. */
import { loadExperiment } from "../harness/experiment/load.js";
import { runTrials } from "../harness/runner/run.js";

export interface GridTiming {
  experiment: string;
  trials: number;
  workers: number;
  wallMs: number;
}

export async function timeGrid(file: string, workers: number): Promise<GridTiming> {
  const experiment = await loadExperiment(file);
  const started = performance.now();
  const trials = await runTrials(experiment, { workers });
  return { experiment: experiment.spec.name, trials: trials.length, workers, wallMs: performance.now() - started };
}

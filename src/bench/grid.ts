/** Wall and CPU time of a whole experiment grid through the harness, at a given worker count. */
import { loadExperiment } from "../harness/experiment/load.js";
import { runTrials } from "../harness/runner/run.js";
import { cpuMsSince } from "./stats.js";

export interface GridTiming {
  experiment: string;
  trials: number;
  workers: number;
  wallMs: number;
  /** User and system CPU time of the whole process (every thread) over the same span. */
  cpuMs: number;
}

export async function timeGrid(file: string, workers: number): Promise<GridTiming> {
  const experiment = await loadExperiment(file);
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const trials = await runTrials(experiment, { workers });
  return { experiment: experiment.spec.name, trials: trials.length, workers, wallMs: performance.now() - started, cpuMs: cpuMsSince(cpuStarted) };
}

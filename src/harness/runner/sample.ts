import type { Experiment } from "../experiment/load.js";
import type { ExperimentResults, Trial } from "../results/types.js";
import { trialKey } from "../results/trial-key.js";
import { byCodeUnit } from "../../shared/order.js";

/**
 * A run on a sample of a dataset's conversations, for a quick check: only the sampled scenarios'
 * trials (and sweep evaluations) run, and every other scenario's come from the recording. The
 * results then have the recording's shape, so the check compares them as it compares a full run,
 * and anything that differs comes from a sampled scenario or from what is computed over all of
 * them (a sweep's selection). Such results are never written: they are part recording.
 */
export interface RunSample {
  /** The scenarios that run. */
  scenarios: ReadonlySet<string>;
  /** The recorded results of the same experiment (same hash), where the other scenarios' figures come from. */
  recorded: ExperimentResults;
}

/**
 * `count` of `names`, spread evenly over their code-unit order (the middle of each of `count`
 * equal stretches), so that a sample does not lean towards either end; all of them when `count`
 * is at least their number.
 */
export function spreadSample(names: readonly string[], count: number): string[] {
  const sorted = [...names].sort(byCodeUnit);
  if (count >= sorted.length) return sorted;
  return Array.from({ length: count }, (_, i) => sorted[Math.floor(((2 * i + 1) * sorted.length) / (2 * count))]!);
}

/**
 * The sample a quick check of `experiment` runs on: `count` of its conversations, when it reads a
 * dataset with more than that, and its recording is of this very experiment (the same file,
 * scenarios and data). Otherwise none: hand-made scenarios each test one behaviour, so they always
 * run, and a recording of another version of the experiment cannot stand in for any scenario.
 */
export function datasetSample(experiment: Experiment, recorded: ExperimentResults | undefined, count: number): RunSample | undefined {
  if (experiment.spec.dataset === undefined || recorded === undefined || recorded.manifest.experimentHash !== experiment.hash) return undefined;
  const names = experiment.scenarios.map((s) => s.spec.name);
  if (names.length <= count) return undefined;
  return { scenarios: new Set(spreadSample(names, count)), recorded };
}

/** The recorded trials a sampled run takes instead of running them: those of scenarios outside the sample, by trial key. */
export function recordedOutsideSample(sample: RunSample | undefined): Map<string, Trial> {
  const taken = new Map<string, Trial>();
  for (const trial of sample?.recorded.trials ?? []) {
    if (!sample!.scenarios.has(trial.scenario)) taken.set(trialKey(trial), trial);
  }
  return taken;
}

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
  /** The scenarios that run: the sampled conversations, and every hand-made scenario. */
  scenarios: ReadonlySet<string>;
  /** The sampled conversations, and how many the dataset gave, for the reader. */
  conversations: { sampled: string[]; of: number };
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

/** Why a quick check re-runs every conversation of an experiment that has more than it would sample. */
export interface NoSample {
  whyNot: string;
}

/**
 * The sample a quick check of `experiment` runs on: `count` of the conversations it imported from
 * its dataset, when there are more than that, and its recording is of this very experiment (the
 * same file, scenarios and data). Hand-made scenarios each test one behaviour, so they always run.
 * Undefined when there is nothing to sample (too few conversations, or none); NoSample when there
 * is, but no recording of this experiment can stand in for the conversations left out.
 */
export function datasetSample(experiment: Experiment, recorded: ExperimentResults | undefined, count: number): RunSample | NoSample | undefined {
  const conversations = experiment.scenarios.filter((s) => s.imported).map((s) => s.spec.name);
  if (conversations.length <= count) return undefined;
  if (recorded === undefined) return { whyNot: "there is no recording to take the others from" };
  if (recorded.manifest.experimentHash !== experiment.hash) return { whyNot: "the recording is of another version of the experiment (its file, scenarios or data)" };
  const sampled = spreadSample(conversations, count);
  const handMade = experiment.scenarios.filter((s) => !s.imported).map((s) => s.spec.name);
  return { scenarios: new Set([...sampled, ...handMade]), conversations: { sampled, of: conversations.length }, recorded };
}

/** The recorded trials a sampled run takes instead of running them: those of scenarios outside the sample, by trial key. */
export function recordedOutsideSample(sample: RunSample | undefined): Map<string, Trial> {
  const taken = new Map<string, Trial>();
  for (const trial of sample?.recorded.trials ?? []) {
    if (!sample!.scenarios.has(trial.scenario)) taken.set(trialKey(trial), trial);
  }
  return taken;
}

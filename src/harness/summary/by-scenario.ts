import type { ExperimentResults } from "../results/types.js";
import { DEFAULT_SUMMARY_SEED, summarise, type SummariseOptions } from "../summary.js";
import type { ExperimentSummary } from "../summary-types.js";

export type ScenarioSummaryOptions = Omit<SummariseOptions, "scenario" | "seed" | "headlineOnly"> & { seed?: number };

const cache = new WeakMap<ExperimentResults, Map<string, ExperimentSummary>>();

/**
 * The summary restricted to one scenario's asks: its "all" group and its comparisons with the
 * baseline (no letters, no categories). Several reports ask for the same ones (the
 * losses table of EVALUATION.md, the figures of FAILURE_ANALYSIS.md), so they are memoised per
 * results object: a recorded results object is never mutated.
 */
export function scenarioSummary(
  results: ExperimentResults,
  scenario: string,
  options: ScenarioSummaryOptions = {},
): ExperimentSummary {
  const seed = options.seed ?? DEFAULT_SUMMARY_SEED;
  const key = JSON.stringify([scenario, seed, options.bootstrapResamples ?? null, options.testResamples ?? null]);
  let perResults = cache.get(results);
  if (perResults === undefined) {
    perResults = new Map();
    cache.set(results, perResults);
  }
  let summary = perResults.get(key);
  if (summary === undefined) {
    summary = summarise(results, { ...options, seed, scenario, headlineOnly: true });
    perResults.set(key, summary);
  }
  return summary;
}

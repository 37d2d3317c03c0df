import { trialKey } from "../results/trial-key.js";
import type { AskResult, ExperimentResults } from "../results/types.js";

/** One (scenario, ask, seed) pair: the unit every ablation is measured on. */
export interface PairKey {
  scenario: string;
  ask: string;
  seed: number;
  /** The ask's category, when the scenario came from a benchmark that labels its questions. */
  category?: string;
}

/**
 * Every ablation's ask results in one shared order (scenarios and asks as the experiment lists
 * them, then seeds), so that position i means the same (scenario, ask, seed) under every
 * ablation and differences between ablations are paired.
 */
export interface AlignedResults {
  keys: PairKey[];
  byAblation: Map<string, AskResult[]>;
}

/** Looks up one trial's ask result; the results file promises one trial per (scenario, ablation, seed). */
export type AskLookup = (scenario: string, ablation: string, seed: number, ask: string) => AskResult | undefined;

export function askLookup(results: ExperimentResults): AskLookup {
  const index = new Map<string, Map<string, AskResult>>();
  for (const trial of results.trials) {
    const asks = new Map<string, AskResult>();
    for (const askResult of trial.asks) asks.set(askResult.ask, askResult);
    index.set(trialKey(trial), asks);
  }
  return (scenario, ablation, seed, ask) => index.get(trialKey({ scenario, ablation, seed }))?.get(ask);
}

/**
 * Aligns the results, optionally restricted to one scenario. A missing trial or ask result means
 * the file is incomplete; silently pairing around the hole would bias every comparison, so it
 * is an error.
 */
export function alignResults(results: ExperimentResults, scenario?: string): AlignedResults {
  const { experiment } = results;
  const scenarios = experiment.scenarios.filter((s) => scenario === undefined || s.name === scenario);
  if (scenario !== undefined && scenarios.length === 0) {
    throw new Error(`experiment "${experiment.name}" has no scenario "${scenario}"`);
  }
  const lookup = askLookup(results);
  const keys: PairKey[] = [];
  const byAblation = new Map<string, AskResult[]>(experiment.ablations.map((a) => [a.name, []]));
  for (const s of scenarios) {
    for (const ask of s.asks) {
      for (const seed of experiment.seeds) {
        const key: PairKey = { scenario: s.name, ask: ask.id, seed };
        if (ask.category !== undefined) key.category = ask.category;
        keys.push(key);
        for (const { name } of experiment.ablations) {
          const found = lookup(s.name, name, seed, ask.id);
          if (found === undefined) {
            throw new Error(
              `results of experiment "${experiment.name}" lack ask "${ask.id}" of scenario "${s.name}" ` +
                `under ablation "${name}", seed ${seed}`,
            );
          }
          byAblation.get(name)!.push(found);
        }
      }
    }
  }
  return { keys, byAblation };
}

/**
 * Answer accuracy per condition: the share of answer keys matched and the share of asks answered
 * in full, each the mean over asks (each ask's seeds averaged) with a 95% interval that treats
 * the scenarios as the independent units, as the retrieval statistics do. Both are shares in
 * [0, 1], so their intervals are the bounded (Wilson-type) ones, which keep their coverage near 0
 * and 1 (a condition that answers every ask is not "1.000 [1.000, 1.000]").
 */
import { bootstrapMeanCI, createRng, type MeanInterval } from "../stats/index.js";
import type { AnswerResults } from "./schema.js";

const ANSWER_STATISTICS_SEED = 20240501;

export interface ConditionAccuracy {
  condition: string;
  /** Mean share of keys matched per ask. */
  keys: MeanInterval;
  /** Share of asks with every key matched. */
  full: MeanInterval;
  reflections: number;
  insights: number;
  /** Scenarios in which reflection ran at least once. */
  reflectedIn: string[];
}

export function answerAccuracy(results: AnswerResults, seed = ANSWER_STATISTICS_SEED): ConditionAccuracy[] {
  const rng = createRng(seed);
  return results.conditions.map(({ name }) => {
    const trials = results.trials.filter((t) => t.condition === name);
    const asks = trials.flatMap((t) => t.asks.map((a) => ({ ...a, scenario: t.scenario })));
    const structure = { items: asks.map((a) => `${a.scenario}\u0000${a.ask}`), clusters: asks.map((a) => a.scenario) };
    return {
      condition: name,
      keys: bootstrapMeanCI(asks.map((a) => a.score), { seed: rng.fork(`${name}:keys`), ...structure, bounded: true }),
      full: bootstrapMeanCI(asks.map((a) => (a.allMatched ? 1 : 0)), { seed: rng.fork(`${name}:full`), ...structure, bounded: true }),
      reflections: trials.reduce((sum, t) => sum + t.reflections, 0),
      insights: trials.reduce((sum, t) => sum + t.insights.length, 0),
      reflectedIn: [...new Set(trials.filter((t) => t.reflections > 0).map((t) => t.scenario))].sort(),
    };
  });
}

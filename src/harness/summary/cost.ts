/**
 * What each ablation or system costs, beside what it scores: the tokens its retrievals return,
 * how often they passed the budget it was told, its call latencies, and the trials it failed.
 * Tokens come from the trials and are exact; latencies are the recording run's measurements.
 */
import { metricReader } from "../metrics.js";
import type { ExperimentResults, LatencySummary } from "../results/types.js";

export interface CostRow {
  ablation: string;
  /** Mean of the metric over every (ask, seed), where it applies. */
  quality: number;
  /** Mean Gemma tokens of what retrieval returned (the block, or the memories' lines). */
  returnedTokens: number;
  /** Mean Gemma tokens of the returned memories' lines, as budgets count them. */
  lineTokens: number;
  /** The budget the system was told (systems only), and the (ask, seed) pairs whose lines passed it. */
  budget?: number | null;
  overBudget: number;
  asks: number;
  /** Trials the system failed and the run skipped (their asks scored as empty retrievals). */
  skipped: number;
  trials: number;
  write?: LatencySummary;
  retrieve?: LatencySummary;
}

export function costRows(results: ExperimentResults, metric: string): CostRow[] {
  const read = metricReader(metric);
  return results.experiment.ablations.map(({ name, budget }) => {
    const trials = results.trials.filter((t) => t.ablation === name);
    const asks = trials.flatMap((t) => t.asks);
    const values = asks.map(read).filter((v): v is number => v !== null);
    const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
    const timing = results.timing?.[name];
    return {
      ablation: name,
      quality: mean(values),
      returnedTokens: mean(asks.map((a) => a.returnedTokens ?? a.tokens)),
      lineTokens: mean(asks.map((a) => a.tokens)),
      ...(budget === undefined ? {} : { budget }),
      overBudget: budget === undefined || budget === null ? 0 : asks.filter((a) => a.tokens > budget).length,
      asks: asks.length,
      skipped: trials.filter((t) => t.skipped !== undefined).length,
      trials: trials.length,
      ...(timing === undefined ? {} : { write: timing.write, retrieve: timing.retrieve }),
    };
  });
}

/**
 * What the reports say about a recorded sweep: the pooled held-out score of honest selection with
 * its clustered interval, the training score and the optimism gap, the choices per fold, and paired
 * clustered comparisons of the held-out vector with each ordinary ablation on the same asks.
 * Everything is recomputed from the recorded per-ask values and fold choices, through the
 * statistics of src/harness/stats.
 */
import { metricReader } from "../metrics.js";
import type { ExperimentResults, SweepResults } from "../results/types.js";
import { bootstrapMeanCI, type ClusteredComparison, type ClusteredInterval, compareToBaseline, createRng } from "../stats/index.js";
import { askLookup } from "../summary/align.js";

export interface SweepComparison {
  ablation: string;
  /** The ablation's mean objective over the same asks. */
  mean: number;
  /** Held-out minus ablation, with its clustered interval and test. */
  comparison: ClusteredComparison;
}

export interface SweepAnalysis {
  sweep: SweepResults;
  /** The pooled held-out objective, each ask scored by its own fold's choice. */
  heldOut: ClusteredInterval;
  /** The fold training scores, weighted by the asks each fold holds out. */
  training: number;
  /** training − held-out: how much choosing on the same asks would flatter the winner. */
  optimism: number;
  /** Each point chosen by some fold, with how many folds chose it, most chosen first. */
  chosenCounts: { id: string; folds: number }[];
  comparisons: SweepComparison[];
  /** Per point, its mean objective over every ask (the in-sample figure). */
  means: Map<string, number>;
}

export function analyseSweep(results: ExperimentResults, seed: number): SweepAnalysis | undefined {
  const sweep = results.sweep;
  if (sweep === undefined) return undefined;
  const { experiment } = results;
  const items = experiment.scenarios.flatMap((s) => s.asks.map((a) => ({ scenario: s.name, ask: a.id })));
  const clusters = items.map((i) => i.scenario);
  const labels = items.map((_, i) => i);
  const foldOf = new Map(sweep.selection.folds.flatMap((f) => f.heldOut.map((c) => [c, f.chosen] as const)));
  const heldOutValues = items.map((item, i) => sweep.values[foldOf.get(item.scenario)!][i]);
  const root = createRng(seed).fork("sweep");
  const heldOut = bootstrapMeanCI(heldOutValues, { seed: root.fork("held-out"), items: labels, clusters }) as ClusteredInterval;

  const lookup = askLookup(results);
  const { metric, tokenPenalty } = sweep.objective;
  const read = metricReader(metric);
  const comparisons = experiment.ablations.map(({ name }) => {
    const values = items.map(({ scenario, ask }) => {
      const perSeed = experiment.seeds.map((s) => {
        const result = lookup(scenario, name, s, ask);
        if (result === undefined) throw new Error(`results of "${experiment.name}" lack ask "${ask}" of "${scenario}" under "${name}", seed ${s}`);
        return (read(result) ?? 0) - tokenPenalty * result.tokens;
      });
      return perSeed.reduce((a, b) => a + b, 0) / perSeed.length;
    });
    const comparison = compareToBaseline(values, heldOutValues, { seed: root.fork(`vs\u0000${name}`), items: labels, clusters }) as ClusteredComparison;
    return { ablation: name, mean: comparison.baselineMean, comparison };
  });

  const totalItems = sweep.selection.folds.reduce((sum, f) => sum + f.items, 0);
  const training = totalItems === 0 ? 0 : sweep.selection.folds.reduce((sum, f) => sum + f.training * f.items, 0) / totalItems;
  const counts = new Map<string, number>();
  for (const fold of sweep.selection.folds) counts.set(fold.chosen, (counts.get(fold.chosen) ?? 0) + 1);
  const order = new Map(sweep.points.map((p, i) => [p.id, i]));
  const chosenCounts = [...counts]
    .map(([id, folds]) => ({ id, folds }))
    .sort((a, b) => b.folds - a.folds || order.get(a.id)! - order.get(b.id)!);
  const means = new Map(sweep.points.map((p) => [p.id, mean(sweep.values[p.id])]));
  return { sweep, heldOut, training, optimism: training - heldOut.mean, chosenCounts, comparisons, means };
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

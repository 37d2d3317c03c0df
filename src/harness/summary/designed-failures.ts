import { higherIsBetter, metricValue } from "../metrics.js";
import type { ExperimentResults } from "../results/types.js";
import { compareToBaseline, createRng, holm } from "../stats/index.js";
import { askLookup } from "./align.js";

/** How one designed failure came out: did the ablation lose where its scenario was built to make it? */
export interface DesignedFailure {
  scenario: string;
  ablation: string;
  metric: string;
  baselineMean: number;
  ablationMean: number;
  /** Ablation − baseline over the scenario's (ask, seed) pairs, with its 95% bootstrap interval. */
  diff: { mean: number; lo: number; hi: number; n: number };
  p: number;
  /** Holm-adjusted across the experiment's designed failures: a family fixed before any run. */
  pHolm: number;
  wins: number;
  ties: number;
  losses: number;
  /** Worse than the baseline on the metric, significantly after Holm. */
  loses: boolean;
}

const ALPHA = 0.05;

export function designedFailures(results: ExperimentResults, options: { seed: number }): DesignedFailure[] {
  const { experiment } = results;
  const lookup = askLookup(results);
  const ablations = new Set(experiment.ablations.map((a) => a.name));
  const root = createRng(options.seed).fork("designed-failures");
  const rows: Omit<DesignedFailure, "pHolm" | "loses">[] = [];
  for (const scenario of experiment.scenarios) {
    for (const { ablation, metric } of scenario.targets) {
      if (!ablations.has(ablation)) continue;
      const base: number[] = [];
      const variant: number[] = [];
      for (const ask of scenario.asks) {
        for (const seed of experiment.seeds) {
          const a = lookup(scenario.name, experiment.baseline, seed, ask.id);
          const b = lookup(scenario.name, ablation, seed, ask.id);
          const va = a && metricValue(a, metric);
          const vb = b && metricValue(b, metric);
          if (va === null || va === undefined || vb === null || vb === undefined) continue;
          base.push(va);
          variant.push(vb);
        }
      }
      const c = compareToBaseline(base, variant, { seed: root.fork(`${scenario.name}\u0000${ablation}\u0000${metric}`) });
      const better = higherIsBetter(metric);
      rows.push({
        scenario: scenario.name,
        ablation,
        metric,
        baselineMean: c.baselineMean,
        ablationMean: c.ablationMean,
        diff: { mean: c.meanDiff, lo: c.lo, hi: c.hi, n: c.n },
        p: c.p,
        wins: better ? c.wins : c.losses,
        ties: c.ties,
        losses: better ? c.losses : c.wins,
      });
    }
  }
  const adjusted = holm(rows.map((r) => r.p));
  return rows.map((row, i) => {
    const worse = higherIsBetter(row.metric) ? row.diff.mean < 0 : row.diff.mean > 0;
    return { ...row, pHolm: adjusted[i], loses: worse && adjusted[i] < ALPHA };
  });
}

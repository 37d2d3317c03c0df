import { higherIsBetter, isUnitBounded, metricReader } from "../metrics.js";
import type { ExperimentResults } from "../results/types.js";
import { type ClusteredComparison, compareToBaseline, createRng, holm } from "../stats/index.js";
import type { DesignedFailure } from "./types.js";
import { askLookup } from "./align.js";

const ALPHA = 0.05;
/** The name of the Holm family of the designed failures. */
export const DESIGNED_FAILURES_FAMILY = "designed failures";

/**
 * Each scenario's claims ("this ablation fails here, on this metric"), tested.
 *
 * Such a claim is about robustness: does the failure hold whatever the seed varies (clock jitter,
 * distractors, order, importance noise)? So the seed is the unit: each seed's asks of the scenario
 * are averaged, and the ablation is compared with the baseline across seeds (compareToBaseline with
 * the seed as item and cluster; with 12 seeds or fewer the exact sign-flip test decides, so 5 seeds
 * can give no p below 2/32 = 0.0625 and cannot confirm a failure at 5%, which is honest). This is
 * a statement about this scenario, not about asks in general;
 * the reports label it so. The claims of one experiment form one Holm family, fixed before any run.
 */
export function designedFailures(results: ExperimentResults, options: { seed: number }): DesignedFailure[] {
  const { experiment } = results;
  const lookup = askLookup(results);
  const ablations = new Set(experiment.ablations.map((a) => a.name));
  const root = createRng(options.seed).fork(DESIGNED_FAILURES_FAMILY);
  const rows: Omit<DesignedFailure, "pHolm" | "loses">[] = [];
  for (const scenario of experiment.scenarios) {
    for (const { ablation, metric } of scenario.targets) {
      if (!ablations.has(ablation)) continue;
      const read = metricReader(metric);
      const base: number[] = [];
      const variant: number[] = [];
      const seeds: number[] = [];
      for (const ask of scenario.asks) {
        for (const seed of experiment.seeds) {
          const a = lookup(scenario.name, experiment.baseline, seed, ask.id);
          const b = lookup(scenario.name, ablation, seed, ask.id);
          const va = a && read(a);
          const vb = b && read(b);
          if (va === null || va === undefined || vb === null || vb === undefined) continue;
          base.push(va);
          variant.push(vb);
          seeds.push(seed);
        }
      }
      const bounds = isUnitBounded(metric) ? ([0, 1] as const) : undefined;
      const c = compareToBaseline(base, variant, { seed: root, items: seeds, clusters: seeds, bounds }) as ClusteredComparison;
      const better = higherIsBetter(metric);
      rows.push({
        scenario: scenario.name,
        ablation,
        metric,
        baselineMean: c.baselineMean,
        ablationMean: c.ablationMean,
        diff: { mean: c.meanDiff, lo: c.lo, hi: c.hi, n: c.n, nItems: new Set(seeds).size, nClusters: new Set(seeds).size, df: c.df },
        p: c.p,
        method: c.method,
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

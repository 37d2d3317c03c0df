import { higherIsBetter, metricNames, metricValue } from "./metrics.js";
import type { AskResult, ExperimentResults } from "./results/types.js";
import {
  bootstrapMeanCI,
  compareToBaseline,
  createRng,
  holm,
  letterSystems,
  type Rng,
} from "./stats/index.js";
import { alignResults, type PairKey } from "./summary/align.js";
import { rankChanges } from "./summary/rank-changes.js";
import type { Comparison, ExperimentSummary, MetricSummary } from "./summary-types.js";

/** The seed the reports use when they summarise; recorded summaries are reproducible from it. */
export const DEFAULT_SUMMARY_SEED = 20240501;
export const SIGNIFICANCE_LEVEL = 0.05;
export const DEFAULT_BOOTSTRAP_RESAMPLES = 2000;
export const DEFAULT_TEST_RESAMPLES = 10_000;
/**
 * The letters run a test for every pair of ablations in every column, so they use fewer
 * resamples: p can still reach 1/2001, which survives Holm across the 55 pairs of 11 ablations.
 */
export const LETTER_RESAMPLES = 2_000;
export const ALL_GROUP = "all";

export interface SummariseOptions {
  seed: number;
  /** Restrict the summary to one scenario's asks (its own Holm family and rank changes). */
  scenario?: string;
  bootstrapResamples?: number;
  /** Resamples of the sign-flip tests (versus baseline and for the letters). */
  testResamples?: number;
  /**
   * Only the "all" group, without letters: what the per-scenario views need (comparisons with
   * the baseline), at a fraction of the cost for a benchmark with categories and many scenarios.
   */
  headlineOnly?: boolean;
}

/**
 * The statistics of one experiment, per metric × ablation × group ("all", then each ask category).
 *
 * Values are taken over (scenario, ask, seed) pairs in one order for every ablation, so
 * differences are paired. A null value (coverage of an ask that requires nothing) is left out:
 * from an ablation's own mean, from a comparison when either side is null, and from the letters
 * when any ablation is null.
 *
 * Holm family: for each group, all (ablation, metric) comparisons with the baseline in that group
 * are corrected together. For the "all" group that is every comparison the experiment reports
 * on its headline table; category groups are families of their own, since they are read as
 * separate tables. The letters of a (metric, group) are Holm-corrected across the pairs of that
 * column (see letterSystems).
 *
 * Every random stream is forked from `seed` by a label naming (ablation, metric, group), so a
 * figure does not change when another ablation or metric is added.
 */
export function summarise(results: ExperimentResults, options: SummariseOptions): ExperimentSummary {
  const { experiment } = results;
  const bootstrapResamples = options.bootstrapResamples ?? DEFAULT_BOOTSTRAP_RESAMPLES;
  const testResamples = options.testResamples ?? DEFAULT_TEST_RESAMPLES;
  const root =
    options.scenario === undefined
      ? createRng(options.seed)
      : createRng(options.seed).fork(`scenario\u0000${options.scenario}`);

  const ablations = experiment.ablations.map((a) => a.name);
  if (!ablations.includes(experiment.baseline)) {
    throw new Error(`experiment "${experiment.name}": baseline "${experiment.baseline}" is not among its ablations`);
  }
  const metrics = metricNames(experiment.k);
  const aligned = alignResults(results, options.scenario);
  const groups = options.headlineOnly ? [ALL_GROUP] : groupsOf(aligned.keys);

  const rows: MetricSummary[] = [];
  for (const group of groups) {
    const indices = aligned.keys.flatMap((key, i) => (group === ALL_GROUP || key.category === group ? [i] : []));
    const groupRows: MetricSummary[] = [];
    const comparisons: { row: MetricSummary; p: number }[] = [];
    for (const metric of metrics) {
      const values = new Map(
        ablations.map((a) => [a, valuesOf(aligned.byAblation.get(a)!, indices, metric)] as const),
      );
      const letters = options.headlineOnly
        ? ablations.map(() => ({ letter: "", beats: [] as string[] }))
        : letter(ablations, values, metric, {
            seed: root.fork(`letters\u0000${metric}\u0000${group}`),
            resamples: Math.min(testResamples, LETTER_RESAMPLES),
          });
      const baselineValues = values.get(experiment.baseline)!;
      ablations.forEach((ablation, a) => {
        const own = values.get(ablation)!;
        const rng = root.fork(`${ablation}\u0000${metric}\u0000${group}`);
        const row: MetricSummary = {
          metric,
          ablation,
          group,
          value: bootstrapMeanCI(nonNull(own), { seed: rng.fork("mean"), resamples: bootstrapResamples }),
          letter: letters[a].letter,
          beats: letters[a].beats,
        };
        if (ablation !== experiment.baseline) {
          const { p, comparison } = compare(baselineValues, own, metric, {
            seed: rng.fork("vs-baseline"),
            bootstrapResamples,
            testResamples,
          });
          row.vsBaseline = comparison;
          comparisons.push({ row, p });
        }
        groupRows.push(row);
      });
    }
    const adjusted = holm(comparisons.map((c) => c.p));
    comparisons.forEach(({ row }, i) => {
      row.vsBaseline!.pHolm = adjusted[i];
      row.vsBaseline!.significant = adjusted[i] < SIGNIFICANCE_LEVEL;
    });
    rows.push(...groupRows);
  }

  return {
    experiment: experiment.name,
    baseline: experiment.baseline,
    ablations,
    metrics,
    groups,
    rows,
    rankChanges: rankChanges(results, options.scenario),
  };
}

/** The row of one (ablation, metric, group); throws when the summary has none, which is a caller bug. */
export function findRow(
  summary: ExperimentSummary,
  ablation: string,
  metric: string,
  group: string = ALL_GROUP,
): MetricSummary {
  const row = summary.rows.find((r) => r.ablation === ablation && r.metric === metric && r.group === group);
  if (row === undefined) {
    throw new Error(
      `summary of "${summary.experiment}" has no row for ablation "${ablation}", metric "${metric}", group "${group}"`,
    );
  }
  return row;
}

function groupsOf(keys: readonly PairKey[]): string[] {
  const categories = new Set<string>();
  for (const key of keys) if (key.category !== undefined) categories.add(key.category);
  return [ALL_GROUP, ...[...categories].sort()];
}

function valuesOf(askResults: readonly AskResult[], indices: readonly number[], metric: string): (number | null)[] {
  return indices.map((i) => metricValue(askResults[i], metric));
}

function nonNull(values: readonly (number | null)[]): number[] {
  return values.filter((v): v is number => v !== null);
}

function compare(
  baseline: readonly (number | null)[],
  ablation: readonly (number | null)[],
  metric: string,
  options: { seed: Rng; bootstrapResamples: number; testResamples: number },
): { p: number; comparison: Comparison } {
  const b: number[] = [];
  const a: number[] = [];
  baseline.forEach((value, i) => {
    const other = ablation[i];
    if (value !== null && other !== null) {
      b.push(value);
      a.push(other);
    }
  });
  const result = compareToBaseline(b, a, options);
  // compareToBaseline counts "ablation higher" as a win; for leakage and tokens lower is better.
  const better = higherIsBetter(metric);
  return {
    p: result.p,
    comparison: {
      diff: { mean: result.meanDiff, lo: result.lo, hi: result.hi, n: result.n },
      p: result.p,
      pHolm: result.p,
      significant: false,
      wins: better ? result.wins : result.losses,
      ties: result.ties,
      losses: better ? result.losses : result.wins,
    },
  };
}

function letter(
  ablations: readonly string[],
  values: ReadonlyMap<string, (number | null)[]>,
  metric: string,
  options: { seed: Rng; resamples: number },
) {
  const length = values.get(ablations[0])!.length;
  const complete: number[] = [];
  for (let i = 0; i < length; i++) {
    if (ablations.every((a) => values.get(a)![i] !== null)) complete.push(i);
  }
  return letterSystems(
    ablations.map((name) => ({ name, scores: complete.map((i) => values.get(name)![i] as number) })),
    { ...options, alpha: SIGNIFICANCE_LEVEL, higherIsBetter: higherIsBetter(metric) },
  );
}

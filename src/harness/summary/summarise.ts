import { higherIsBetter, isRankMetric, isUnitBounded, metricNames, metricReader } from "../metrics.js";
import type { AskResult, ExperimentResults } from "../results/types.js";
import {
  bootstrapMeanCI,
  type ClusteredComparison,
  type ClusteredInterval,
  compareToBaseline,
  createRng,
  EXACT_CLUSTER_MAX,
  holm,
  letterSystems,
  minimumDetectableEffect,
  type MeanInterval,
  type Rng,
  type Structure,
  westfallYoung,
} from "../stats/index.js";
import type { Adjustment } from "./adjustment.js";
import { alignResults, type AlignedResults, type PairKey } from "./align.js";
import { designedFailures } from "./designed-failures.js";
import { rankChanges } from "./rank-changes.js";
import type { Comparison, ExperimentSummary, Family, Interval, MetricSummary, Unit, Verdict } from "./types.js";

/** The seed the reports use when they summarise; recorded summaries are reproducible from it. */
export const DEFAULT_SUMMARY_SEED = 20240501;
export const SIGNIFICANCE_LEVEL = 0.05;
export const DEFAULT_BOOTSTRAP_RESAMPLES = 2000;
export const DEFAULT_TEST_RESAMPLES = 10_000;
/**
 * The letters run a test for every pair of ablations in every column, so they use fewer
 * resamples: p can still reach 1/2001, which survives Holm across the 45 pairs of 10 ablations.
 */
export const LETTER_RESAMPLES = 2_000;
export const ALL_GROUP = "all";

export interface SummariseOptions {
  seed: number;
  bootstrapResamples?: number;
  /** Resamples of the sign-flip tests of independent values, when not exact. */
  testResamples?: number;
}

/**
 * The statistics of one experiment, per metric × ablation × group ("all", then each ask category),
 * and its designed failures.
 *
 * The question is the unit. Values are taken over (scenario, ask, seed) in one order for every
 * ablation, so differences are paired; the seeds of an ask are averaged first, and the
 * experiment's `cluster` setting says what is independent (scenarios by default). A null value
 * (coverage of an ask that requires nothing) is left out: from an ablation's own mean, from a
 * comparison when either side is null, and from the letters when any ablation is null.
 *
 * Families are defined once, here, and each comparison with the baseline belongs to exactly
 * one: per group, the headline metrics form one family and the other metrics another, so a
 * comparison has the same verdict in every table and report that shows it. A family is adjusted
 * by Westfall–Young over joint cluster sign flips when the exact test decided all its members
 * over the same clusters, by Holm otherwise (see correctWithinFamilies). Its minimum detectable
 * effect is computed at α / its family's size (see Comparison.mdeLevel).
 * Metrics bounded in [0, 1] get intervals that keep their coverage near the bounds. A rank metric compared
 * across a per-kind and a pooled policy is not comparable and takes no part (see Comparison). The
 * letters compare the non-baseline ablations with each other, Holm-corrected per column.
 *
 * Every stream is forked from `seed` by purpose and keyed by the data it draws from, so identical
 * values get identical intervals and a figure does not change when another ablation is added.
 */
export function summarise(results: ExperimentResults, options: SummariseOptions): ExperimentSummary {
  const { experiment } = results;
  const ablations = experiment.ablations.map((a) => a.name);
  if (!ablations.includes(experiment.baseline)) {
    throw new Error(`experiment "${experiment.name}": baseline "${experiment.baseline}" is not among its ablations`);
  }
  const metrics = metricNames(experiment.k);
  const headline = experiment.headline.filter((m) => metrics.includes(m));
  const aligned = alignResults(results);
  const groups = groupsOf(aligned.keys);
  const setup: Setup = {
    baseline: experiment.baseline,
    ablations,
    headline,
    aligned,
    labels: unitLabels(aligned.keys, experiment.cluster),
    modes: modesOf(experiment.ablations),
    root: createRng(options.seed),
    bootstrapResamples: options.bootstrapResamples ?? DEFAULT_BOOTSTRAP_RESAMPLES,
    testResamples: options.testResamples ?? DEFAULT_TEST_RESAMPLES,
  };
  const uncorrected = groups.flatMap((group) => metrics.flatMap((metric) => summariseColumn(setup, group, metric)));
  const { rows, families } = correctWithinFamilies(uncorrected);

  return {
    experiment: experiment.name,
    baseline: experiment.baseline,
    ablations,
    metrics,
    headline,
    groups,
    unit: unitOf(experiment.cluster, aligned.keys),
    families,
    rows,
    designedFailures: designedFailures(results, { seed: options.seed }),
    rankChanges: rankChanges(results),
  };
}

/** What every column of the summary is computed from. */
interface Setup {
  baseline: string;
  ablations: string[];
  headline: string[];
  aligned: AlignedResults;
  labels: UnitLabels;
  modes: ReadonlyMap<string, string>;
  root: Rng;
  bootstrapResamples: number;
  testResamples: number;
}

/**
 * A comparison with the baseline before its family is known in full, so without an adjusted
 * verdict, carrying what the MDE at the family's level and the joint adjustment are computed from.
 */
type UncorrectedComparison = Omit<Comparison, "pHolm" | "significant" | "adjustment"> & {
  design?: { se: number; df: number };
  clusterTotals?: ClusterTotals;
};
type ClusterTotals = { clusteredBy: "cluster" | "item"; labels: readonly (string | number)[]; totals: readonly number[] };

/** A comparison's adjusted p, the size of its family and how the family was adjusted. */
interface Corrected {
  pHolm: number;
  familySize: number;
  adjustment: Adjustment;
}
type UncorrectedRow = Omit<MetricSummary, "vsBaseline"> & { vsBaseline?: UncorrectedComparison };

/** The rows of one metric in one group: each ablation's mean, its letters, and its comparison with the baseline. */
function summariseColumn(setup: Setup, group: string, metric: string): UncorrectedRow[] {
  const { baseline, ablations, aligned, root } = setup;
  const indices = aligned.keys.flatMap((key, i) => (group === ALL_GROUP || key.category === group ? [i] : []));
  const values = new Map(ablations.map((a) => [a, valuesOf(aligned.byAblation.get(a)!, indices, metric)] as const));
  const structureAt = (positions: readonly number[]) => setup.labels.restrict(positions.map((p) => indices[p]));
  const letters = letter(ablations.filter((a) => a !== baseline), values, metric, structureAt, {
    seed: root.fork(`letters\u0000${metric}\u0000${group}`),
    resamples: Math.min(setup.testResamples, LETTER_RESAMPLES),
  });
  const family = familyName(group, setup.headline.includes(metric));
  return ablations.map((ablation) => {
    const own = values.get(ablation)!;
    const row: UncorrectedRow = {
      metric,
      ablation,
      group,
      value: meanOf(own, structureAt, { seed: root.fork("mean"), resamples: setup.bootstrapResamples, bounded: isUnitBounded(metric) }),
      letter: letters.get(ablation)?.letter ?? "",
      beats: letters.get(ablation)?.beats ?? [],
    };
    if (ablation === baseline) return row;
    const comparable = !(isRankMetric(metric) && setup.modes.get(ablation) !== setup.modes.get(baseline));
    row.vsBaseline = compare(values.get(baseline)!, own, metric, structureAt, {
      seed: root.fork("vs-baseline"),
      bootstrapResamples: setup.bootstrapResamples,
      testResamples: setup.testResamples,
      family,
      comparable,
    });
    return row;
  });
}

/** An ablation's mean over its non-null values, with its interval. */
export function meanOf(
  values: readonly (number | null)[],
  structureAt: (positions: readonly number[]) => Structure,
  options: { seed: Rng; resamples: number; bounded: boolean },
): Interval {
  const present = positionsOf(values, (v) => v !== null);
  return toInterval(bootstrapMeanCI(present.map((p) => values[p]!), { ...options, ...structureAt(present) }));
}

/**
 * The adjustment step: the comparable comparisons of each family are corrected together, once
 * every row is known, and each comparison gets its final p and verdict. A comparison that is not
 * comparable takes no part and has no verdict (pHolm 1). Families are listed in the order their
 * first comparable member appears.
 *
 * The comparisons of a family share their clusters (every ablation is measured on the same asks)
 * and so are strongly dependent, which Holm ignores: with 10 clusters the exact test's smallest p,
 * 2/1024, can never pass Holm's first step in a family of 36. When the exact cluster sign-flip
 * test decided every member, over at most EXACT_CLUSTER_MAX clusters in all, the family is
 * adjusted by Westfall–Young over joint sign flips of those clusters, which controls the
 * family-wise error rate at the same α and pays only for the comparisons' effective number.
 * Otherwise (the t test decided some member, or there are more clusters) it keeps Holm.
 */
function correctWithinFamilies(uncorrected: readonly UncorrectedRow[]): { rows: MetricSummary[]; families: Family[] } {
  const members = new Map<string, number[]>();
  uncorrected.forEach((row, i) => {
    const c = row.vsBaseline;
    if (c?.comparable) members.set(c.family, [...(members.get(c.family) ?? []), i]);
  });
  const corrected = new Map<number, Corrected>();
  const families: Family[] = [];
  for (const [name, rows] of members) {
    const joint = jointTotals(rows.map((i) => uncorrected[i].vsBaseline!));
    const adjustment: Adjustment = joint === undefined ? "holm" : "westfall-young";
    const adjusted = joint === undefined ? holm(rows.map((i) => uncorrected[i].vsBaseline!.p)) : westfallYoung(joint);
    rows.forEach((row, k) => corrected.set(row, { pHolm: adjusted[k], familySize: rows.length, adjustment }));
    families.push({ name, size: rows.length, adjustment });
  }
  return {
    rows: uncorrected.map(({ vsBaseline, ...row }, i) =>
      vsBaseline === undefined ? row : { ...row, vsBaseline: withVerdict(vsBaseline, corrected.get(i)) },
    ),
    families,
  };
}

/**
 * The members' cluster totals aligned on the union of their clusters, a cluster where a member
 * has no items (a metric null on all its asks) counting 0, or undefined when the family does not
 * qualify for the joint adjustment: some member not decided by the exact test, clusters of
 * different kinds (declared clusters against asks standing in for them), or more than
 * EXACT_CLUSTER_MAX clusters in all.
 */
function jointTotals(comparisons: readonly UncorrectedComparison[]): number[][] | undefined {
  const kinds = new Set(comparisons.map((c) => c.clusterTotals?.clusteredBy));
  if (kinds.size !== 1 || comparisons.some((c) => c.method !== "exact-sign-flip" || c.clusterTotals === undefined)) return undefined;
  const index = new Map<string | number, number>();
  for (const c of comparisons) for (const label of c.clusterTotals!.labels) if (!index.has(label)) index.set(label, index.size);
  if (index.size > EXACT_CLUSTER_MAX) return undefined;
  return comparisons.map(({ clusterTotals }) => {
    const row = new Array<number>(index.size).fill(0);
    clusterTotals!.labels.forEach((label, c) => (row[index.get(label)!] = clusterTotals!.totals[c]));
    return row;
  });
}

/**
 * The comparison's adjusted p, verdict and MDE. The MDE is at α / m for a family of m: Holm
 * rejects a p below that whatever the other p-values, and so, in the normal approximation the MDE
 * rests on, does Westfall–Young, whose maxT threshold Bonferroni's then bounds: an effect of the
 * MDE is detected after adjustment with about 80% power or more. A test that cannot reach significance under its adjustment (see
 * significanceFloor) can detect nothing, and has no MDE.
 */
function withVerdict(comparison: UncorrectedComparison, corrected: Corrected | undefined): Comparison {
  const { diff, p, design, clusterTotals: _joint, ...rest } = comparison;
  const pHolm = corrected?.pHolm ?? 1;
  const significant = pHolm < SIGNIFICANCE_LEVEL;
  const mdeLevel = corrected === undefined ? undefined : SIGNIFICANCE_LEVEL / corrected.familySize;
  const floor = corrected === undefined ? undefined : significanceFloor({ mdeLevel, adjustment: corrected.adjustment });
  const detectable = design !== undefined && floor !== undefined && mdeLevel !== undefined && design.se > 0 && (rest.smallestP ?? 0) < floor;
  return {
    diff,
    p,
    pHolm,
    ...(corrected === undefined ? {} : { adjustment: corrected.adjustment }),
    significant,
    ...rest,
    ...(mdeLevel === undefined || design === undefined ? {} : { mdeLevel }),
    ...(detectable ? { mde: minimumDetectableEffect(design.se, design.df, { alpha: mdeLevel }) } : {}),
    verdict: verdictOf(comparison, significant),
  };
}

/**
 * The level the deciding test's smallest p must be below for the comparison to be significant
 * after its family's adjustment at all: Holm's first step, α / m (mdeLevel); under Westfall–Young
 * α itself, since the strongest comparison's adjusted p is 2 / 2^C when no other sign vector
 * reaches its maximum. Undefined when the comparison has no family level.
 */
export function significanceFloor(c: Pick<Comparison, "mdeLevel" | "adjustment">): number | undefined {
  if (c.mdeLevel === undefined) return undefined;
  return c.adjustment === "westfall-young" ? SIGNIFICANCE_LEVEL : c.mdeLevel;
}

/** A comparison's verdict: the one summarise recorded, or for a hand-built comparison the same rule applied to it. */
export function comparisonVerdict(c: Comparison): Verdict {
  return c.verdict ?? verdictOf(c, c.significant);
}

function verdictOf(c: Pick<Comparison, "comparable" | "wins" | "losses" | "diff">, significant: boolean): Verdict {
  if (!c.comparable) return "not-comparable";
  if (c.wins === 0 && c.losses === 0) return "identical";
  // A test and an interval that disagree (a bootstrap interval beside a sign-flip p, for
  // independent values) are never called significant: the interval must exclude 0 too.
  if (!(c.diff.lo > 0 || c.diff.hi < 0)) return "not-detected";
  return significant ? "significant" : "per-comparison";
}

/**
 * One policy against another (`reference`) on one metric over every ask, paired and clustered
 * exactly as each comparison with the baseline is, so that a report can say whether two policies
 * other than the baseline can be told apart. It belongs to no Holm family: its p is per comparison,
 * and so is its verdict.
 */
export function comparePair(results: ExperimentResults, reference: string, other: string, metric: string, seed: number): Comparison {
  const { experiment } = results;
  const aligned = alignResults(results);
  const labels = unitLabels(aligned.keys, experiment.cluster);
  const all = aligned.keys.map((_, i) => i);
  const modes = modesOf(experiment.ablations);
  const valuesOfPolicy = (name: string) => {
    const asks = aligned.byAblation.get(name);
    if (asks === undefined) throw new Error(`experiment "${experiment.name}" has no ablation "${name}"`);
    return valuesOf(asks, all, metric);
  };
  const comparison = compare(valuesOfPolicy(reference), valuesOfPolicy(other), metric, (positions) => labels.restrict(positions), {
    seed: createRng(seed).fork(`pair\u0000${reference}\u0000${other}\u0000${metric}`),
    bootstrapResamples: DEFAULT_BOOTSTRAP_RESAMPLES,
    testResamples: DEFAULT_TEST_RESAMPLES,
    family: PER_COMPARISON,
    comparable: !(isRankMetric(metric) && modes.get(reference) !== modes.get(other)),
  });
  return withVerdict(comparison, { pHolm: comparison.p, familySize: 1, adjustment: "holm" });
}

/** Each policy's section layout; a system without sections ranks one list, as a pooled policy does. */
function modesOf(ablations: ExperimentResults["experiment"]["ablations"]): Map<string, string> {
  return new Map(ablations.map((a) => [a.name, a.policy?.mode ?? "pooled"]));
}

/** The family of a comparison corrected with no other: its adjusted p is its own. */
export const PER_COMPARISON = "per comparison";

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

/** The name of the family of a group's headline or other metrics. */
export function familyName(group: string, headline: boolean): string {
  return `${group === ALL_GROUP ? "all asks" : `category ${group}`}, ${headline ? "headline metrics" : "other metrics"}`;
}

/** Item and cluster labels of every aligned value, restricted on demand to some positions. */
export interface UnitLabels {
  restrict(positions: readonly number[]): Structure;
}

export function unitLabels(keys: readonly PairKey[], cluster: Unit["cluster"]): UnitLabels {
  if (cluster === "none") return { restrict: () => ({}) };
  const itemIds = new Map<string, number>();
  const scenarioIds = new Map<string, number>();
  const items = keys.map((k) => idOf(itemIds, `${k.scenario}\u0000${k.ask}`));
  const clusters = cluster === "scenario" ? keys.map((k) => idOf(scenarioIds, k.scenario)) : items;
  return {
    restrict: (positions) => ({ items: positions.map((p) => items[p]), clusters: positions.map((p) => clusters[p]) }),
  };
}

function unitOf(cluster: Unit["cluster"], keys: readonly PairKey[]): Unit {
  const scenarios = new Set(keys.map((k) => k.scenario)).size;
  const label =
    cluster === "none"
      ? "(ask, seed) values taken as independent"
      : cluster === "ask" || scenarios < 2
        ? `asks (seeds averaged), each ask independent${cluster === "scenario" ? " (one scenario only)" : ""}`
        : "asks (seeds averaged), clustered by scenario";
  return { cluster, label };
}

function idOf(ids: Map<string, number>, key: string): number {
  let id = ids.get(key);
  if (id === undefined) {
    id = ids.size;
    ids.set(key, id);
  }
  return id;
}

function groupsOf(keys: readonly PairKey[]): string[] {
  const categories = new Set<string>();
  for (const key of keys) if (key.category !== undefined) categories.add(key.category);
  return [ALL_GROUP, ...[...categories].sort()];
}

function valuesOf(askResults: readonly AskResult[], indices: readonly number[], metric: string): (number | null)[] {
  const read = metricReader(metric);
  return indices.map((i) => read(askResults[i]));
}

function positionsOf<T>(values: readonly T[], keep: (value: T) => boolean): number[] {
  const positions: number[] = [];
  values.forEach((v, i) => {
    if (keep(v)) positions.push(i);
  });
  return positions;
}

function toInterval(interval: MeanInterval | ClusteredInterval): Interval {
  const clustered = "nClusters" in interval;
  return {
    mean: interval.mean,
    lo: interval.lo,
    hi: interval.hi,
    n: interval.n,
    nItems: clustered ? interval.nItems : interval.n,
    nClusters: clustered ? interval.nClusters : interval.n,
    ...("df" in interval ? { df: interval.df } : {}),
  };
}

function compare(
  baseline: readonly (number | null)[],
  ablation: readonly (number | null)[],
  metric: string,
  structureAt: (positions: readonly number[]) => Structure,
  options: { seed: Rng; bootstrapResamples: number; testResamples: number; family: string; comparable: boolean },
): UncorrectedComparison {
  const paired = positionsOf(baseline, (v) => v !== null).filter((i) => ablation[i] !== null);
  const result = compareToBaseline(
    paired.map((i) => baseline[i]!),
    paired.map((i) => ablation[i]!),
    { ...options, ...structureAt(paired), ...(isUnitBounded(metric) ? { bounds: [0, 1] as const } : {}) },
  );
  const clustered = "nClusters" in result ? (result as ClusteredComparison) : undefined;
  // compareToBaseline counts "ablation higher" as a win; for leakage and tokens lower is better.
  const better = higherIsBetter(metric);
  return {
    diff: {
      mean: result.meanDiff,
      lo: result.lo,
      hi: result.hi,
      n: result.n,
      nItems: clustered?.nItems ?? result.n,
      nClusters: clustered?.nClusters ?? result.n,
      ...(clustered ? { df: clustered.df } : {}),
    },
    p: options.comparable ? result.p : 1,
    family: options.family,
    comparable: options.comparable,
    method: clustered?.method ?? "sign-flip",
    ...(clustered
      ? {
          designEffect: clustered.designEffect,
          smallestP: clustered.smallestP,
          design: { se: clustered.se, df: clustered.df },
          clusterTotals: { clusteredBy: clustered.clusteredBy, ...clustered.clusterTotals },
        }
      : {}),
    wins: better ? result.wins : result.losses,
    ties: result.ties,
    losses: better ? result.losses : result.wins,
  };
}

function letter(
  ablations: readonly string[],
  values: ReadonlyMap<string, (number | null)[]>,
  metric: string,
  structureAt: (positions: readonly number[]) => Structure,
  options: { seed: Rng; resamples: number },
): Map<string, { letter: string; beats: string[] }> {
  if (ablations.length < 2) return new Map(ablations.map((a) => [a, { letter: "", beats: [] }]));
  const length = values.get(ablations[0])!.length;
  const complete: number[] = [];
  for (let i = 0; i < length; i++) {
    if (ablations.every((a) => values.get(a)![i] !== null)) complete.push(i);
  }
  const lettered = letterSystems(
    ablations.map((name) => ({ name, scores: complete.map((i) => values.get(name)![i] as number) })),
    { ...options, ...structureAt(complete), alpha: SIGNIFICANCE_LEVEL, higherIsBetter: higherIsBetter(metric) },
  );
  return new Map(lettered.map((l) => [l.name, { letter: l.letter, beats: l.beats }]));
}

import type { TestMethod } from "../stats/index.js";
import type { Adjustment } from "./adjustment.js";

/**
 * What the statistics make of one experiment's results. Reporters read this, never raw numbers
 * they computed themselves, so every figure in a report has one source.
 */

export interface Interval {
  mean: number;
  lo: number;
  hi: number;
  /** Number of (ask, seed) values the mean is over. */
  n: number;
  /** Asks the mean is over (each ask's seeds averaged first); n when values are independent. */
  nItems: number;
  /** Independent units of the interval: scenarios, or asks (see Unit). */
  nClusters: number;
  /**
   * Bell–McCaffrey degrees of freedom of a clustered interval: the effective number of
   * independent units, fewer than nClusters when a few large clusters carry most asks. Absent for
   * independent values.
   */
  df?: number;
}

/** What the statistics of one experiment treat as independent, as the reports state it. */
export interface Unit {
  /** The experiment's declared clustering. */
  cluster: "scenario" | "ask" | "none";
  /** What the intervals were computed over, e.g. "asks (seeds averaged), clustered by scenario". */
  label: string;
}

/**
 * What one comparison with the baseline shows, decided once here so every table, finding and
 * chart says the same:
 * - "significant": significant after its family's adjustment (Holm's, or Westfall–Young's);
 * - "per-comparison": its per-comparison interval excludes 0 (p < α), but not after adjustment
 *   over its family;
 * - "not-detected": the interval includes 0;
 * - "identical": the same value on every unit, nothing to detect;
 * - "not-comparable": see Comparison.comparable.
 */
export type Verdict = "significant" | "per-comparison" | "not-detected" | "identical" | "not-comparable";

/** A family: the comparisons corrected together, named so the report can say which, and how. */
export interface Family {
  name: string;
  size: number;
  adjustment: Adjustment;
}

export interface Comparison {
  /** Paired difference ablation − baseline over the same asks, with its interval. */
  diff: Interval;
  /** Two-sided sign-flip p (over clusters when clustered), never 0. */
  p: number;
  /**
   * The family-adjusted p: adjusted within `family` by `adjustment` (the name is Holm's, which
   * was the only adjustment once; it is kept because every table, chart and schema reads it).
   */
  pHolm: number;
  /**
   * How `pHolm` was adjusted: Westfall–Young when the exact cluster sign-flip test decided every
   * comparison of the family over the same clusters, Holm otherwise. Absent on a comparison
   * built by hand, which is taken as Holm (see adjustmentName).
   */
  adjustment?: Adjustment;
  significant: boolean;
  /** The family this comparison belongs to; each comparison belongs to exactly one. */
  family: string;
  /**
   * False for a rank metric compared across a per-kind and a pooled policy: per-kind ranks count
   * within a section, so the two do not measure the same thing. Such a comparison has no verdict.
   */
  comparable: boolean;
  /**
   * Minimum detectable effect: the true |difference| detected with 80% power at `mdeLevel`, a
   * per-comparison level that is significant after adjustment whatever the family's other
   * p-values. Absent when values are independent, when se is 0 (no variance to scale it by), and
   * when no effect can be significant after the adjustment (see smallestP).
   */
  mde?: number;
  /**
   * The level the MDE is computed at: α / the size of the comparison's family. Under Holm it is
   * exactly the level of the first step. Westfall–Young's first step rejects at the α quantile
   * of the family's maximum statistic, which depends on the data and has no closed form; in the
   * normal approximation the MDE itself rests on, where every comparison's statistic has one null
   * distribution, Bonferroni bounds that maximum, so α / m is never above the level maxT needs
   * and the MDE is conservative there.
   */
  mdeLevel?: number;
  /**
   * The smallest p the deciding test can give: 2 / 2^C for the exact sign-flip test over C
   * clusters. No effect can be significant after adjustment when it is not below mdeLevel under
   * Holm, or not below α under Westfall–Young (whose strongest adjusted p can be as small as
   * this); see significanceFloor.
   */
  smallestP?: number;
  /**
   * The test that gave p and the interval, set by summarise: over clusters, the CR2 t test or the
   * exact cluster sign-flip test (see clusteredTest); over independent values, the paired
   * sign-flip test with a bootstrap interval.
   */
  method?: TestMethod | "sign-flip";
  /** The comparison's one verdict (see Verdict); set by summarise. */
  verdict?: Verdict;
  /** Variance under clustering ÷ variance if every (ask, seed) were independent. */
  designEffect?: number;
  /** Units (asks, or (ask, seed) pairs when independent) where the ablation is better, equal, worse. */
  wins: number;
  ties: number;
  losses: number;
}

export interface MetricSummary {
  metric: string;
  ablation: string;
  /** Category label, or "all". */
  group: string;
  value: Interval;
  /** Absent for the baseline itself. */
  vsBaseline?: Comparison;
  /**
   * ranx-style: this ablation's letter and the letters of the other non-baseline ablations it
   * beats significantly (comparisons with the baseline are in `vsBaseline`, with one verdict).
   */
  letter: string;
  beats: string[];
}

/** A memory's signals, its total, and the weights that turned signals into the total. */
export interface Breakdown {
  rel: number;
  rec: number;
  imp: number;
  total: number;
  weights: [number, number, number];
}

/** One gold memory's rank under the baseline and an ablation for one ask (median over seeds). */
export interface RankChange {
  scenario: string;
  ask: string;
  gold: string;
  ablation: string;
  baselineRank: number | null;
  ablationRank: number | null;
  /** The signal whose weighted contribution moved most for this memory, e.g. "rec −0.42". */
  movedBy: string;
  baseline: Breakdown | null;
  variant: Breakdown | null;
}

/** One scenario's claim that an ablation fails on it, tested across seeds. */
export interface DesignedFailure {
  scenario: string;
  ablation: string;
  metric: string;
  baselineMean: number;
  ablationMean: number;
  /** Ablation − baseline with the seed as the unit (each seed's asks averaged), with its interval. */
  diff: Interval;
  p: number;
  /** The test that gave p and the interval: with 12 seeds or fewer, the exact sign-flip test. */
  method?: TestMethod;
  /** Holm-adjusted across the experiment's designed failures: a family fixed before any run. */
  pHolm: number;
  /** Seeds on which the ablation is better, equal, worse. */
  wins: number;
  ties: number;
  losses: number;
  /** Worse than the baseline on the metric, significantly after Holm. */
  loses: boolean;
}

export interface ExperimentSummary {
  experiment: string;
  baseline: string;
  ablations: string[];
  metrics: string[];
  /** The experiment's headline metrics, a subset of `metrics`. */
  headline: string[];
  /** "all" first, then categories in sorted order. */
  groups: string[];
  unit: Unit;
  families: Family[];
  rows: MetricSummary[];
  designedFailures: DesignedFailure[];
  rankChanges: RankChange[];
}

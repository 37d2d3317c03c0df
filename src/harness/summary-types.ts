/**
 * What the statistics make of one experiment's results. Reporters read this, never raw numbers
 * they computed themselves, so every figure in a report has one source.
 */

export interface Interval {
  mean: number;
  lo: number;
  hi: number;
  /** Number of (ask, seed) pairs the mean is over. */
  n: number;
}

export interface Comparison {
  /** Paired difference ablation − baseline over the same (ask, seed), with its bootstrap interval. */
  diff: Interval;
  /** Seeded paired sign-flip test, two-sided, (b+1)/(n+1). */
  p: number;
  /** Holm-adjusted across the experiment's comparisons with the baseline. */
  pHolm: number;
  significant: boolean;
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
  /** ranx-style: this ablation's letter and the letters of the ablations it beats significantly. */
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

export interface ExperimentSummary {
  experiment: string;
  baseline: string;
  ablations: string[];
  metrics: string[];
  /** "all" first, then categories in sorted order. */
  groups: string[];
  rows: MetricSummary[];
  rankChanges: RankChange[];
}

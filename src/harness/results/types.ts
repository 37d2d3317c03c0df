import type { RetrievalPolicy } from "../../memory/index.js";
import type { SystemInfo } from "../systems/spec.js";

/**
 * The shape of results/<experiment>.json. It is what the reporters read and what the regression
 * check compares, so everything here is plain, sorted, rounded data: the same run gives the same
 * bytes.
 */

/**
 * The results format. Version 2 added the ablations' policies, the statistics' unit and the
 * headline metrics, and the neighbours of each gold memory in the detail.
 */
export const RESULTS_FORMAT = "recollect-results/2";

/** Fields that describe the recording run rather than its outcome (a Node patch release changes no result); the check ignores them. */
export const VOLATILE_MANIFEST_FIELDS = ["gitCommit", "gitDirty", "node", "wallTimeMs", "ablationWallTimeMs", "sweepWallTimeMs"] as const;

export interface Manifest {
  /** HEAD when the results were recorded. */
  gitCommit: string;
  /** Whether the work tree had uncommitted changes then. */
  gitDirty: boolean;
  node: string;
  /** Exact versions of the packages that shape results. */
  packages: Record<string, string>;
  tokenizerSha256: string;
  /** Data files read by the experiment, by public name; a file the experiment names has its path relative to the experiment file. */
  datasets: { name: string; sha256: string; note?: string; path?: string }[];
  /** sha256 of the experiment file and every scenario it ran. */
  experimentHash: string;
  /** Wall time of the recording run; informational only. */
  wallTimeMs: number;
  /** With a sweep: wall time of the ordinary ablations' trials, per ablation (their total ÷ their count). */
  ablationWallTimeMs?: number;
  /** With a sweep: wall time of evaluating every point (the one pass, or the points' full trials). */
  sweepWallTimeMs?: number;
  /**
   * Set only in the results of one shard of the grid (`--shard i/n`), which `merge` joins, with
   * the version of the code that ran it (a hash of the source and the lockfile).
   */
  shard?: { index: number; count: number; codeVersion?: string };
}

/** An ablation (recollect under a policy) or a system compared beside them (see `system`). */
export interface AblationInfo {
  name: string;
  description: string;
  note?: string;
  /** The policy recollect ran under; absent for a system that is not one of recollect's policies. */
  policy?: RetrievalPolicy;
  /** The system that ran, when it is not a recollect policy: a baseline, a module or a command. */
  system?: SystemInfo;
  /** The token budget the system was told at each retrieval (systems only; a policy keeps its quotas). */
  budget?: number | null;
}

export interface AskInfo {
  id: string;
  /** Hours from the scenario's start to the ask, as the file declares it (before any seed's jitter). */
  hour: number;
  query: string;
  expect: string[];
  required: string[];
  stale: string[];
  category?: string;
  /**
   * Hours from the scenario's start to when each expected memory was written, aligned with
   * `expect` (before any seed's jitter); null for one the file does not write (a distractor).
   * How old the evidence is when asked is what recency decides on.
   */
  expectHours?: (number | null)[];
}

export interface ScenarioInfo {
  name: string;
  description: string;
  /** Ablations the scenario is built to make fail, each on one metric. */
  targets: { ablation: string; metric: string }[];
  asks: AskInfo[];
}

export interface ExperimentInfo {
  /** The run's name: the experiment's, suffixed with its ask protocol when the file lists several. */
  name: string;
  /** The experiment's own name, shared by the runs of one file. */
  family: string;
  /** When the questions were asked, for experiments on a dataset (see the experiment file's protocol). */
  protocol?: "end" | "online" | "immediate";
  /** The experiment file: relative to the project for its own experiments, else the file's name alone. */
  file: string;
  description: string;
  baseline: string;
  /**
   * Ablations in report order, the baseline first, each with the policy it ran. `description`
   * is generated from the policy: the baseline's settings, or what the others change.
   */
  ablations: AblationInfo[];
  seeds: number[];
  k: number[];
  /** Whether a memory whose `source` is a gold id counts as that gold memory. */
  matchSource: boolean;
  /** The independent units of the statistics (see the experiment file's `cluster`). */
  cluster: "scenario" | "ask" | "none";
  /** The metrics the findings and main tables report. */
  headline: string[];
  /**
   * Memories with an importance rating of their own and without (those get the midpoint), and
   * the seed noise each kind got (see the experiment's variation).
   */
  importance: { rated: number; unrated: number; noise: number; unratedNoise: number };
  scenarios: ScenarioInfo[];
  /** Dataset import figures (counts, dropped evidence ids), when scenarios came from a dataset. */
  importStats?: Record<string, unknown>;
}

/** A gold memory's place in the ordering that produced the block, and why. */
export interface GoldDetail {
  id: string;
  /**
   * Section that ranked it (its kind's section, "pooled", or "ranking" for a system that reports
   * one list); null when it was not a candidate.
   */
  section: string | null;
  /** The signals, for systems that report them (recollect does); absent otherwise. */
  rel?: number;
  rec?: number;
  imp?: number;
  total?: number;
  /** The weights [rel, rec, imp] of the section that ranked it, so contributions can be compared. */
  weights?: [number, number, number];
  /**
   * The memories ranked just above and just below it in its section (NEIGHBOURS on each side),
   * with their signals: the ones an ablation can make overtake it, or that it can overtake.
   */
  neighbours?: NeighbourDetail[];
}

/** How many memories above and below a gold memory its detail records. */
export const NEIGHBOURS = 2;

export interface NeighbourDetail {
  id: string;
  rank: number;
  rel: number;
  rec: number;
  imp: number;
  total: number;
}

export interface AskDetail {
  /** Ids in the block, in block order. */
  kept: string[];
  /** Token use per section name. */
  sectionTokens: Record<string, number>;
  gold: GoldDetail[];
}

export interface AskResult {
  ask: string;
  /** 1-based rank of each expected id (aligned with the ask's `expect`); null = not ranked. */
  ranks: (number | null)[];
  /** Share of the required ids that reached the block; null when nothing is required. */
  coverage: number | null;
  /** Ids in the block that were stale at this ask (declared stale, corrected or expired). */
  leaked: string[];
  /** Tokens of memory lines in the block. */
  tokens: number;
  /** Kept ids and score breakdowns; recorded for hand-made scenarios, omitted for large benchmarks. */
  detail?: AskDetail;
  /**
   * Gemma tokens of what retrieval returned: the block text when the system gives one (recollect's
   * includes its section tags), otherwise its memories' lines (then equal to `tokens`).
   */
  returnedTokens?: number;
}

/** Wall times of a trial's calls to its system, in milliseconds; measured, so never compared by the check. */
export interface CallLatency {
  write: number[];
  retrieve: number[];
}

export interface Trial {
  scenario: string;
  ablation: string;
  seed: number;
  asks: AskResult[];
  /** Set when the system failed and the run skips such trials: its asks are scored as empty retrievals. */
  skipped?: { call: string; message: string };
  /** Only while a run is in progress (and in its journal): results keep the percentiles (see timing). */
  latency?: CallLatency;
}

/** Percentiles of one kind of call over every trial of one ablation or system, in milliseconds. */
export interface LatencySummary {
  calls: number;
  p50: number;
  p95: number;
}

/**
 * What the calls cost in wall time, per ablation or system. A measurement of the recording
 * machine and its load, like the manifest's wall time: reports show it, the check ignores it.
 */
export type Timing = Record<string, { write: LatencySummary; retrieve: LatencySummary }>;

export interface ExperimentResults {
  format: typeof RESULTS_FORMAT;
  experiment: ExperimentInfo;
  manifest: Manifest;
  /** Sorted by scenario, then ablation (in experiment order), then seed. */
  trials: Trial[];
  /** The sweep's points, their per-ask objective and the selection, when the experiment sweeps. */
  sweep?: SweepResults;
  /** Latency percentiles per ablation or system; see Timing. */
  timing?: Timing;
}

/** One point of a sweep: a policy patch over the sweep's base policy. */
export interface SweepPointInfo {
  id: string;
  /** The value of each swept parameter, as the policy holds it. */
  values: Record<string, number | string | boolean | number[] | null>;
  /** Generated from the policies: what the point changes relative to the base. */
  label: string;
}

/**
 * What a sweep recorded: enough to recompute its selection and to check it. `values[id][i]` is
 * the point's objective on item i (the asks of experiment.scenarios in order, seeds averaged).
 */
export interface SweepResults {
  parameters: string[];
  objective: { metric: string; tokenPenalty: number };
  /** `one-pass`: touch off for every point, each timeline played once for all of them; `full-trials`: each point ran its own trials. */
  evaluation: "one-pass" | "full-trials";
  /** Whether every point ran with touch off. */
  touchOff: boolean;
  foldSeed: number;
  /** The policy every point patches. */
  base: RetrievalPolicy;
  points: SweepPointInfo[];
  values: Record<string, number[]>;
  selection: {
    folds: { heldOut: string[]; chosen: string; training: number; heldOutScore: number; items: number }[];
    /** The point chosen on all the items, and its mean objective there. */
    chosen: string;
    chosenScore: number;
  };
}

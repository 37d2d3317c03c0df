/**
 * The signals of one section and their weighted sum, exactly as the contract defines them (bm25
 * relevance divided by the section's largest, optional min-max scaling over the section's
 * candidates), and upper bounds on that sum that let ranking pass over memories without computing
 * their recency.
 *
 * Every bound is the sum's own expression evaluated at a signal's extreme. Floating-point products
 * and sums are monotone, and so is min-max scaling, so a bound on a signal bounds the computed
 * total too. Recency `decay ** units` only falls as a memory ages (it is constant for a decay of
 * 1 or more, which clamps to 1), so an older memory's recency is at most a newer one's; the
 * margins cover `**` being a few units in the last place off monotone. The bounds need finite
 * weights and decay rates of at least 0 (the policy schema asks for both), and recency by time:
 * otherwise no bound is claimed and every candidate is scored. Recency by rank (a position among
 * every candidate) is fixed before any score, like min-max ranges.
 */
import { byCodeUnit } from "../../shared/order.js";
import { importanceScore, rankRecencyScore, recencyScore, retrievalScore } from "../scoring.js";
import { KINDS, type ScoreConfig } from "../types.js";
import type { Candidates } from "./candidates.js";
import type { AccessRun } from "../store/access-order.js";
import type { RankView } from "./view.js";

/** One non-empty access run of a section (see AccessOrder): a kind's memories at one importance level. */
export interface KindRun {
  kind: number;
  run: AccessRun;
}

/** Min-max scaling of one signal over a section's candidates; all equal → 0.5. */
export interface SignalRange {
  min: number;
  max: number;
}

export interface SignalRanges {
  rel: SignalRange;
  rec: SignalRange;
  imp: SignalRange;
}

const scale = (x: number, range: SignalRange | null) =>
  range === null ? x : range.max === range.min ? 0.5 : (x - range.min) / (range.max - range.min);

/** Slack on a recency read from a neighbour in last-access order (recency is at most 1). */
const RECENCY_MARGIN = 1e-12;

/**
 * Recency already computed for one moment, per slot, keyed by decay rate and unit (NaN where not
 * yet computed): rankings of one ask under many policies over an unchanged store share it, so a
 * memory's recency is computed once per decay setting rather than once per policy.
 */
export type RecencyMemo = (decayRate: number, unitMs: number) => Float64Array;

export class SectionSignals {
  private readonly decayOf: number[];
  /** ln(1 / decay) per kind, for the pow-free bound; NaN where that bound does not apply. */
  private readonly decayLog: number[];
  private readonly prunable: boolean;
  // The weights, held apart: the bounds run for every candidate.
  private readonly w0: number;
  private readonly w1: number;
  private readonly w2: number;
  /**
   * The recency that maximises w1 · recency among the section's memories: when recency weighs
   * for, that of the last access of any of them (see ceilings), else 0.
   */
  private readonly bestRecency: number;
  /** Likewise for importance: the largest or the smallest any of them has. */
  private readonly bestImportance: number;
  private ranges: SignalRanges | null = null;
  /** Per kind, the shared recency of its decay setting, or null to compute every time. */
  private readonly memoOf: (Float64Array | null)[];
  /** Under rank recency: each candidate's position in last-access order, from 1, by slot (0: not a candidate). */
  private positions: Int32Array | null = null;

  constructor(
    private readonly view: RankView,
    private readonly config: ScoreConfig,
    private readonly now: number,
    /** bm25 relevance is divided by this (the section's largest raw relevance) when above 0. */
    private readonly relDivisor: number,
    memo: RecencyMemo | undefined,
    /** The section's non-empty access runs (see KindRun). */
    runs: readonly KindRun[],
  ) {
    this.decayOf = KINDS.map((k) => config.kindDecay[k] ?? config.decayRate);
    // Rank recency depends on the section's candidates, so only time recency is shared.
    this.memoOf = this.decayOf.map((d) => (memo === undefined || config.recency === "rank" ? null : memo(d, config.unitMs)));
    this.decayLog = this.decayOf.map((d) => (d >= 0 && d < 1 ? -Math.log(d) : Number.NaN));
    this.prunable = config.recency !== "rank" && config.weights.every(Number.isFinite) && this.decayOf.every((d) => d >= 0);
    [this.w0, this.w1, this.w2] = config.weights;
    const ceiling = this.ceilings(runs);
    this.bestRecency = this.w1 >= 0 ? ceiling.recency : 0;
    this.bestImportance = this.w2 >= 0 ? ceiling.importance.max : ceiling.importance.min;
  }

  /**
   * The highest recency and the range of importance among the memories of `kinds`, read off the
   * access order: its runs hold every current memory, ascending by last access, and the importance
   * range of each. Recency only falls with age, so the newest last access gives the highest (with
   * the margin for `**`). A bound from these, rather than from recency 1, lets a ranking rule out
   * low relevance at once when every memory is old, as when questions come long after the talk.
   */
  private ceilings(runs: readonly KindRun[]): { recency: number; importance: SignalRange } {
    const importance = { min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY };
    const newest = this.decayOf.map(() => Number.NEGATIVE_INFINITY);
    for (const { kind, run } of runs) {
      newest[kind] = Math.max(newest[kind], run.keys[run.length - 1]);
      importance.min = Math.min(importance.min, run.minImportance);
      importance.max = Math.max(importance.max, run.maxImportance);
    }
    let recency = 0;
    newest.forEach((key, kind) => {
      if (key > Number.NEGATIVE_INFINITY) {
        recency = Math.max(recency, recencyScore(this.now, key, this.decayOf[kind], this.config.unitMs) + RECENCY_MARGIN);
      }
    });
    // No memory at all: nothing to bound, and the extremes of each signal do no harm.
    return importance.min > importance.max ? { recency: 1, importance: { min: 0, max: 1 } } : { recency: Math.min(1, recency), importance };
  }

  /** Min-max scales every signal from now on (ranges measured over the section's candidates). */
  scaleOver(ranges: SignalRanges): void {
    this.ranges = ranges;
  }

  /** Whether recency is a position among the candidates, which positionsOver must fix first. */
  get byRank(): boolean {
    return this.config.recency === "rank";
  }

  /** Fixes rank recency's positions over the section's candidates (`slots`, every one of them). */
  positionsOver(slots: readonly number[]): void {
    const { lastAccessedAt, ids } = this.view;
    const sign = this.config.recencyOrder === "ascending" ? 1 : -1;
    const ordered = [...slots].sort((a, b) => sign * (lastAccessedAt[a] - lastAccessedAt[b]) || byCodeUnit(ids[a], ids[b]));
    // A column by slot rather than a map: a map of every candidate, built for each ranking, cost
    // more than the ranking's sort.
    const positions = new Int32Array(this.view.size);
    ordered.forEach((slot, i) => (positions[slot] = i + 1));
    this.positions = positions;
  }

  /** Relevance before any min-max scaling. */
  relevance(raw: number): number {
    return this.relDivisor > 0 ? raw / this.relDivisor : raw;
  }

  recency(slot: number): number {
    const { view, config } = this;
    if (this.positions !== null) {
      const position = this.positions[slot];
      if (!(position > 0)) throw new Error(`rank recency: slot ${slot} is not a candidate of the section`);
      return rankRecencyScore(position, this.decayOf[view.kind[slot]]);
    }
    const kind = view.kind[slot];
    const memo = this.memoOf[kind];
    if (memo === null) return recencyScore(this.now, view.lastAccessedAt[slot], this.decayOf[kind], config.unitMs);
    let rec = memo[slot];
    if (Number.isNaN(rec)) {
      rec = recencyScore(this.now, view.lastAccessedAt[slot], this.decayOf[kind], config.unitMs);
      memo[slot] = rec;
    }
    return rec;
  }

  importance(slot: number): number {
    return importanceScore(this.view.importance[slot]);
  }

  /** Writes entry `at` of `out`: `slot` with raw relevance `raw`, its signals and total. */
  write(out: Candidates, at: number, slot: number, raw: number): void {
    const ranges = this.ranges;
    const rel = scale(this.relevance(raw), ranges && ranges.rel);
    const rec = scale(this.recency(slot), ranges && ranges.rec);
    const imp = scale(this.importance(slot), ranges && ranges.imp);
    out.slots[at] = slot;
    out.rel[at] = rel;
    out.rec[at] = rec;
    out.imp[at] = imp;
    out.total[at] = retrievalScore(rel, rec, imp, this.config.weights);
  }

  /** Whether relevance `rel` alone rules a memory out, at the best recency and importance. */
  cannotReachWith(rel: number, bar: number): boolean {
    return this.prunable && this.sum(rel, this.bestRecency, this.bestImportance) < bar;
  }

  /**
   * A raw relevance at or below which cannotReachWith holds (-Infinity when none is claimed), so
   * that a walk over every memory rules most out with one comparison. The guess solves the bound
   * for relevance and is then checked by the bound itself, which rises with relevance.
   */
  relevanceCutoff(bar: number): number {
    if (!this.prunable || !(this.w0 > 0) || this.ranges !== null || !Number.isFinite(bar)) return Number.NEGATIVE_INFINITY;
    const rest = this.w1 * this.bestRecency + this.w2 * this.bestImportance;
    const guess = ((bar - rest) / this.w0) * (this.relDivisor > 0 ? this.relDivisor : 1);
    // Rounding can leave the guess a few units in the last place too high: step down until the
    // bound agrees, by steps that grow from far below to far above that rounding.
    const unit = (Math.abs(guess) + Math.abs(bar) + Math.abs(rest)) * 2 ** -44;
    for (let step = 0, raw = guess; step < 6; step++, raw = guess - unit * 16 ** step) {
      if (this.cannotReachWith(this.relevance(raw), bar)) return raw;
    }
    return Number.NEGATIVE_INFINITY;
  }

  /**
   * Whether a memory with relevance `rel` (before min-max scaling) cannot reach a total of `bar`.
   * First with recency at its extreme, then, for a decay below 1, with d^x = e^(−x·ln(1/d)) ≤
   * 1 / (1 + x·ln(1/d)), which needs no pow.
   */
  cannotReach(slot: number, rel: number, bar: number): boolean {
    if (!this.prunable) return false;
    const imp = importanceScore(this.view.importance[slot]);
    if (this.sum(rel, this.bestRecency, imp) < bar) return true;
    if (!(this.w1 > 0)) return false;
    const log = this.decayLog[this.view.kind[slot]];
    const units = (this.now - this.view.lastAccessedAt[slot]) / this.config.unitMs;
    if (Number.isNaN(log) || !(units > 0)) return false;
    return this.sum(rel, (1 + 1e-9) / (1 + units * log), imp) < bar;
  }

  /**
   * An upper bound on the total of any memory with relevance 0 in an access run of `kind`, from
   * the last access `key` of the run's next entry in walking order (newest first when recency
   * weighs for, oldest first when against) and the run's importance range. With `rel`, the bound
   * on any memory of relevance at most `rel` (before min-max scaling), which needs relevance to
   * weigh for (see boundsRelevance).
   */
  unmatchedBound(kind: number, key: number, minImportance: number, maxImportance: number, rel = 0): number {
    if (!this.prunable) return Number.POSITIVE_INFINITY;
    const rec = recencyScore(this.now, key, this.decayOf[kind], this.config.unitMs);
    return this.sum(rel, this.w1 >= 0 ? rec + RECENCY_MARGIN : rec - RECENCY_MARGIN, this.w2 >= 0 ? maxImportance : minImportance);
  }

  /**
   * Whether unmatchedBound with the largest relevance of any memory bounds every memory's total,
   * before any scaling: relevance weighs for (or not at all), and the signals are neither
   * min-max scaled (measured over the candidates first) nor recency by rank.
   */
  get boundsRelevance(): boolean {
    return this.prunable && this.w0 >= 0 && this.config.normalise !== "minmax";
  }

  /** Whether recency counts against a memory, so that the oldest come first among equals. */
  get oldestFirst(): boolean {
    return this.w1 < 0;
  }

  /** retrievalScore's own expression, on min-max scaled signals when the section scales them. */
  private sum(rel: number, rec: number, imp: number): number {
    const ranges = this.ranges;
    if (ranges === null) return this.w0 * rel + this.w1 * rec + this.w2 * imp;
    return this.w0 * scale(rel, ranges.rel) + this.w1 * scale(rec, ranges.rec) + this.w2 * scale(imp, ranges.imp);
  }
}

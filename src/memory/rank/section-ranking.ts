/**
 * Ranking one section: its first candidates in section order, or the rank of given memories,
 * visiting only memories that could place. The one ranker behind every retrieval.
 *
 * A candidate is a current memory of the section's kind (any kind when pooled), with relevance
 * above 0 when the rule requires it (isCandidate decides). Candidates are visited in up to three ways:
 * - `newest` order: the section's memories, each passed over when written before the bar;
 * - memories that match the query (from the relevance backend's postings): each passed over when
 *   a bound on its total, computed without its recency, is below the bar;
 * - memories that match nothing: their total comes from recency and importance alone, so they are
 *   walked from the scope's access order, one run per importance level, best first, and the walk
 *   stops once no run's next entry can reach the bar (the threshold algorithm).
 * When the backend gives no postings (embeddings), every memory has a relevance, and the same
 * threshold walk visits them with each run's bound taken at the largest relevance any memory has:
 * it stops as soon as recency and importance leave no memory a chance, rather than passing over
 * every memory of the scope. Where that bound does not hold, every memory is scanned as matched.
 * The bar is the worst total a k-best heap holds, or the total of the memory being ranked, so the
 * result is exactly what scoring every candidate and sorting would give, ties included.
 */
import type { RelevanceScores } from "../relevance/types.js";
import type { ScoreConfig, SectionRule } from "../types.js";
import { type CandidateRule, type Candidates, candidatePrecedes, emptyCandidates, entryPrecedes, isCandidate, pickCandidates } from "./candidates.js";
import { BoundedHeap } from "./heap.js";
import { type KindRun, type RecencyMemo, SectionSignals, type SignalRange } from "./signals.js";
import type { RankView } from "./view.js";

/**
 * A candidate visited: its slot and raw relevance; returns the bar for the rest of the walk, or
 * null when the visitor needs no more candidates. (No bar can say so: a total may be +Infinity.)
 */
type Visit = (slot: number, raw: number) => number | null;
/** Which candidates a walk may visit at all. */
type Accept = ((slot: number) => boolean) | null;

export interface Located {
  /** 1-based position in the section's order. */
  rank: number;
  entry: Candidates;
}

export interface SectionRankingOptions {
  /**
   * The slots of relevance.matched to walk: those of the section's kind (see matchedByKind) save
   * passing over the others; all of them are right too.
   */
  matched?: Int32Array | null;
  /**
   * Whether `matched` is ordered by raw relevance, highest first (see byRelevance). Sorting costs
   * more than one walk, and pays off when many rankings of one ask walk the same slots.
   */
  matchedByRelevance?: boolean;
  /** Recency shared with other rankings of the same ask over the same store (see RecencyMemo). */
  recency?: RecencyMemo;
}

export class SectionRanking {
  /** A lower bound on any candidate's line cost: quota left below it fits nothing more. */
  readonly minCost: number;
  /** Candidates scored so far (visited by a walk), across every call: what bounds saved shows here. */
  visited = 0;
  private readonly signals: SectionSignals;
  private readonly byScore: boolean;
  /** The matched slots of the section's kind (all matched when pooled), or null without postings. */
  private readonly matched: Int32Array | null;
  /** The section's non-empty access runs. */
  private readonly runs: readonly KindRun[];
  /** Whether `matched` runs from the highest raw relevance down, so a walk may stop at its cutoff. */
  private readonly matchedByRelevance: boolean;
  private readonly candidate: CandidateRule;
  /** See relevanceCeiling: undefined until it is first asked for. */
  private ceiling: number | null | undefined;

  constructor(
    private readonly view: RankView,
    private readonly kind: number | null,
    private readonly rule: SectionRule,
    config: ScoreConfig,
    private readonly relevance: RelevanceScores,
    private readonly now: number,
    options: SectionRankingOptions = {},
  ) {
    this.byScore = rule.order === "score";
    this.candidate = { kind, requireRelevance: rule.requireRelevance };
    this.minCost = view.minTokens(kind);
    this.matched = options.matched === undefined ? relevance.matched : options.matched;
    this.matchedByRelevance = options.matched !== undefined && options.matchedByRelevance === true;
    // Read once: nothing is written while a ranking lives, and every walk of the unmatched uses them.
    this.runs = this.kinds().flatMap((kind) => view.accessOrder.runsOf(kind).flatMap((run) => (run.length > 0 ? [{ kind, run }] : [])));
    this.signals = new SectionSignals(view, config, now, relevance.scaleToCandidates ? this.largestRelevance() : 0, options.recency, this.runs);
    // Rank recency and min-max scaling need every candidate before any total exists.
    if (this.signals.byRank) this.signals.positionsOver(this.everyCandidate());
    if (config.normalise === "minmax") this.signals.scaleOver(this.ranges());
  }

  /**
   * The first min(depth, number of candidates) candidates in section order, of those `accept`
   * lets through (all when it is null).
   */
  top(depth: number, accept: Accept = null): Candidates {
    return this.gather(depth, "first", accept, null, Number.NEGATIVE_INFINITY);
  }

  /**
   * The `n` candidates just before and the `n` just after a located one in section order, each
   * with its rank: what evaluation records around a gold memory to say who overtook whom.
   */
  around(at: Located, n: number): Located[] {
    if (n <= 0) return [];
    const { view, byScore } = this;
    const slot = at.entry.slots[0];
    const total = at.entry.total[0];
    const beforeIt = (c: Candidates, i: number) => entryPrecedes(view, c.total[i], c.slots[i], total, slot, byScore);
    const afterIt = (c: Candidates, i: number) => entryPrecedes(view, total, slot, c.total[i], c.slots[i], byScore);
    // Everything before it has at least its key, so that walk keeps the bar there; the walk after
    // it raises the bar like any top n.
    const before = this.gather(n, "last", null, beforeIt, this.key(at.entry, 0));
    const after = this.gather(n, "first", null, afterIt, Number.NEGATIVE_INFINITY);
    return [
      ...Array.from({ length: before.slots.length }, (_, i) => ({ rank: at.rank - 1 - i, entry: pickCandidates(before, [i]) })),
      ...Array.from({ length: after.slots.length }, (_, i) => ({ rank: at.rank + 1 + i, entry: pickCandidates(after, [i]) })),
    ];
  }

  /**
   * The first `depth` candidates in section order (`first`), or the last `depth` (`last`, latest
   * first), among those `accept` lets through before scoring and `keep` after it. Candidates
   * below `floor` are passed over.
   */
  private gather(depth: number, end: "first" | "last", accept: Accept, keep: ((c: Candidates, i: number) => boolean) | null, floor: number): Candidates {
    if (depth <= 0) return emptyCandidates(0);
    const { view, byScore, signals } = this;
    // Entries live in a pool; the heap holds the kept ones and `spare` is where the next
    // candidate is scored (the one evicted or rejected becomes the next spare).
    const pool = emptyCandidates(Math.min(depth, 64) + 1);
    const precedes =
      end === "first"
        ? (a: number, b: number) => candidatePrecedes(view, pool, a, b, byScore)
        : (a: number, b: number) => candidatePrecedes(view, pool, b, a, byScore);
    const heap = new BoundedHeap(depth, precedes);
    let spare = 0;
    this.walk(floor, (slot, raw) => {
      signals.write(pool, spare, slot, raw);
      if (keep === null || keep(pool, spare)) spare = heap.offer(spare) ?? heap.length;
      return end === "first" && heap.full ? Math.max(floor, this.key(pool, heap.worst)) : floor;
    }, accept);
    return pickCandidates(pool, heap.sorted());
  }

  /**
   * Where each of `slots` that is a candidate places, with its signals; only those that place
   * within the first `within`, when given.
   */
  rankOf(slots: readonly number[], within = Number.POSITIVE_INFINITY): Located[] {
    const { view, byScore, signals } = this;
    const { values } = this.relevance;
    const targets = [...new Set(slots)].filter((slot) => slot >= 0 && slot < view.size && isCandidate(view, slot, this.now, this.candidate, signals.relevance(values[slot])));
    if (targets.length === 0) return [];
    const pool = emptyCandidates(targets.length + 1);
    const scratch = targets.length;
    targets.forEach((slot, i) => signals.write(pool, i, slot, values[slot]));
    const before = targets.map(() => 0);
    let placing = targets.length;
    // A candidate that comes before a target has at least the target's key.
    const bar = Math.min(...targets.map((_, i) => this.key(pool, i)));
    this.walk(bar, (slot, raw) => {
      signals.write(pool, scratch, slot, raw);
      targets.forEach((target, i) => {
        if (slot !== target && candidatePrecedes(view, pool, scratch, i, byScore) && ++before[i] === within) placing--;
      });
      // Once every target is known to place past `within`, the walk can end.
      return placing === 0 ? null : bar;
    });
    return targets.flatMap((_, i) => (before[i] < within ? [{ rank: before[i] + 1, entry: pickCandidates(pool, [i]) }] : []));
  }

  /** What the bar is compared with: the total, or the write time for `newest`. */
  private key(c: Candidates, at: number): number {
    return this.byScore ? c.total[at] : this.view.createdAt[c.slots[at]];
  }

  /**
   * Visits every candidate that `accept` lets through and that could reach `bar` (the bar rising
   * as `visit` returns it), each once; others may be passed over.
   */
  private walk(bar: number, visit: Visit, accept: Accept = null): void {
    const { values } = this.relevance;
    const { view, matched } = this;
    if (matched !== null && (this.byScore || this.rule.requireRelevance)) {
      const raised = this.scan(matched, matched.length, values, bar, visit, accept, this.matchedByRelevance);
      if (raised !== null && this.byScore && !this.rule.requireRelevance) this.walkUnmatched(raised, visit, accept);
      return;
    }
    const ceiling = matched === null && this.byScore ? this.relevanceCeiling() : null;
    if (ceiling !== null) {
      this.walkAccessOrder(bar, visit, accept, ceiling);
      return;
    }
    // Every memory of the section's kind: `newest` order, or relevance without postings where no
    // bound holds.
    const list = this.kind === null ? null : view.kindSlots[this.kind];
    this.scan(list === null ? null : list.slots, list === null ? view.size : list.length, values, bar, visit, accept);
  }

  /**
   * Visits the candidates among the first `count` of `slots` (of all slots when null); returns
   * the bar. When `descending` (slots ordered by raw relevance, highest first), the first slot at
   * or below the relevance cutoff ends the walk: every later one is below it too.
   */
  private scan(slots: Int32Array | null, count: number, values: Float64Array, bar: number, visit: Visit, accept: Accept, descending = false): number | null {
    const { signals, byScore } = this;
    // Relevance is at hand: most memories fail on it, by one comparison, before any column is read.
    let cutoff = byScore ? signals.relevanceCutoff(bar) : Number.NEGATIVE_INFINITY;
    for (let i = 0; i < count; i++) {
      const slot = slots === null ? i : slots[i];
      const raw = values[slot];
      if (raw <= cutoff) {
        if (descending) break;
        continue;
      }
      if (!this.admits(slot, raw, bar, accept)) continue;
      this.visited++;
      const raised = visit(slot, raw);
      if (raised === null) return null;
      if (raised !== bar && byScore) cutoff = signals.relevanceCutoff(raised);
      bar = raised;
    }
    return bar;
  }

  /** Whether `slot` is a candidate that `accept` lets through and that could reach `bar`. */
  private admits(slot: number, raw: number, bar: number, accept: Accept): boolean {
    const { signals, view } = this;
    const rel = signals.relevance(raw);
    if (this.byScore && signals.cannotReachWith(rel, bar)) return false;
    // A filter (fits the quota left) rules out most of what it is asked for: checked early.
    if (accept !== null && !accept(slot)) return false;
    // The memory's own bound before whether it is a candidate: most memories that pass the cutoff
    // fail it, and it reads fewer of their columns.
    if (this.byScore ? signals.cannotReach(slot, rel, bar) : view.createdAt[slot] < bar) return false;
    return isCandidate(view, slot, this.now, this.candidate, rel);
  }

  /** The threshold walk over memories with relevance 0 (see walkAccessOrder). */
  private walkUnmatched(bar: number, visit: Visit, accept: Accept): void {
    this.walkAccessOrder(bar, visit, accept, null);
  }

  /**
   * The threshold walk from the access order. Each run's next entry bounds every later one; the
   * walk takes the run with the best bound and stops when even that is below the bar. With
   * `ceiling` null it walks memories of relevance 0, passing over matched ones (a scan of the
   * matched visited them); with a ceiling (the largest raw relevance of any memory) it walks every
   * memory at its own relevance, each run bounded at the ceiling. Dead entries and expired
   * memories are passed over.
   */
  private walkAccessOrder(bar: number, visit: Visit, accept: Accept, ceiling: number | null): void {
    const { view, signals } = this;
    const values = this.relevance.values;
    const oldestFirst = signals.oldestFirst;
    const { runs } = this;
    const relBound = ceiling === null ? 0 : signals.relevance(ceiling);
    const cursor = runs.map(({ run }) => (oldestFirst ? 0 : run.length - 1));
    const bounds = runs.map((_, r) => this.boundAt(cursor, r, relBound));
    for (;;) {
      let best = -1;
      let second = Number.NEGATIVE_INFINITY;
      for (let r = 0; r < runs.length; r++) {
        if (exhausted(runs, cursor, r)) continue;
        if (best === -1 || bounds[r] > bounds[best]) {
          if (best !== -1) second = Math.max(second, bounds[best]);
          best = r;
        } else {
          second = Math.max(second, bounds[r]);
        }
      }
      if (best === -1 || bounds[best] < bar) return;
      // Stay on the best run while it is at least as good as the next best (tied entries, as
      // under a decay of 1, come one after another without another look at the other runs).
      const { kind, run } = runs[best];
      do {
        const at = cursor[best];
        cursor[best] += oldestFirst ? 1 : -1;
        bounds[best] = this.boundAt(cursor, best, relBound);
        const slot = run.slots[at];
        if (accept !== null && !accept(slot)) continue;
        // An unmatched memory's relevance is 0; a matched one was visited by the scan.
        const raw = ceiling === null ? 0 : values[slot];
        if (ceiling === null && values[slot] > 0) continue;
        const rel = signals.relevance(raw);
        // The run's bound at this entry, with the memory's own relevance rather than the ceiling:
        // most memories walked fail it, before any of their columns is read.
        if (ceiling !== null && signals.unmatchedBound(kind, run.keys[at], run.minImportance, run.maxImportance, rel) < bar) continue;
        if (!view.accessOrder.isLive(slot, run.versions[at]) || !isCandidate(view, slot, this.now, this.candidate, rel)) continue;
        // The run's bound holds for every memory in it; its own relevance may leave it no chance.
        if (ceiling !== null && signals.cannotReach(slot, rel, bar)) continue;
        this.visited++;
        const raised = visit(slot, raw);
        if (raised === null) return;
        bar = raised;
      } while (!exhausted(runs, cursor, best) && bounds[best] >= second && bounds[best] >= bar);
    }
  }

  /**
   * What every later entry of run `r` scores at most with relevance at most `rel`, from its entry
   * at the cursor (below any bar once it is exhausted).
   */
  private boundAt(cursor: readonly number[], r: number, rel: number): number {
    const { kind, run } = this.runs[r];
    if (exhausted(this.runs, cursor, r)) return Number.NEGATIVE_INFINITY;
    const bound = this.signals.unmatchedBound(kind, run.keys[cursor[r]], run.minImportance, run.maxImportance, rel);
    // A bound that is not a number bounds nothing: such a run is walked first.
    return Number.isNaN(bound) ? Number.POSITIVE_INFINITY : bound;
  }

  private kinds(): number[] {
    return this.kind === null ? this.view.kindSlots.map((_, k) => k) : [this.kind];
  }

  /**
   * The largest raw relevance of any memory (or more), which bounds every run of the access order,
   * or null when such a bound does not hold (see boundsRelevance) or a relevance is not a number
   * (which no bound covers). The backend's own `largest` when it gives one, else found in a pass,
   * once per ranking: the relevance does not change while it lives.
   */
  private relevanceCeiling(): number | null {
    if (this.ceiling === undefined) {
      const largest = this.signals.boundsRelevance ? (this.relevance.largest ?? largestValue(this.relevance.values, this.view.size)) : Number.NaN;
      this.ceiling = Number.isNaN(largest) ? null : largest;
    }
    return this.ceiling;
  }

  /** The largest raw relevance among the section's memories (bm25 divides by it). */
  private largestRelevance(): number {
    const { values } = this.relevance;
    const { matched, view } = this;
    let max = 0;
    const count = matched === null ? view.size : matched.length;
    for (let i = 0; i < count; i++) {
      const slot = matched === null ? i : matched[i];
      // A raw relevance above 0 is above 0 at any scale, so it meets a relevance rule.
      if (values[slot] > max && isCandidate(view, slot, this.now, this.candidate, values[slot])) max = values[slot];
    }
    return max;
  }

  /** Every candidate's slot (no bound is claimed yet, so the walk visits them all). */
  private everyCandidate(): number[] {
    const slots: number[] = [];
    this.walk(Number.NEGATIVE_INFINITY, (slot) => {
      slots.push(slot);
      return Number.NEGATIVE_INFINITY;
    });
    return slots;
  }

  /** Each signal's range over every candidate (the walk visits them all with no bar). */
  private ranges(): { rel: SignalRange; rec: SignalRange; imp: SignalRange } {
    const out = { rel: emptyRange(), rec: emptyRange(), imp: emptyRange() };
    this.walk(Number.NEGATIVE_INFINITY, (slot, raw) => {
      widen(out.rel, this.signals.relevance(raw));
      widen(out.rec, this.signals.recency(slot));
      widen(out.imp, this.signals.importance(slot));
      return Number.NEGATIVE_INFINITY;
    });
    return out;
  }
}

/** The largest of values[0…size-1], as Math.max gives it: NaN when any is NaN, -Infinity when there are none. */
function largestValue(values: Float64Array, size: number): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let slot = 0; slot < size; slot++) {
    const value = values[slot];
    if (value > max) max = value;
    else if (value !== value) return Number.NaN;
  }
  return max;
}

/** Whether the walk has passed either end of run `r`. */
function exhausted(runs: readonly KindRun[], cursor: readonly number[], r: number): boolean {
  return cursor[r] < 0 || cursor[r] >= runs[r].run.length;
}

const emptyRange = (): SignalRange => ({ min: Number.POSITIVE_INFINITY, max: Number.NEGATIVE_INFINITY });

function widen(r: SignalRange, x: number): void {
  if (x < r.min) r.min = x;
  if (x > r.max) r.max = x;
}

/** `slots` ordered by raw relevance, highest first (ties by slot), for walks that stop at a cutoff. */
export function byRelevance(slots: Int32Array, values: Float64Array): Int32Array {
  return slots.slice().sort((a, b) => values[b] - values[a] || a - b);
}

/** `matched` split by kind (kind code → its slots, in order), so each per-kind section walks only its own. */
export function matchedByKind(view: RankView, matched: Int32Array): Int32Array[] {
  const counts = view.kindSlots.map(() => 0);
  for (let i = 0; i < matched.length; i++) counts[view.kind[matched[i]]]++;
  const out = counts.map((n) => new Int32Array(n));
  const filled = counts.map(() => 0);
  for (let i = 0; i < matched.length; i++) {
    const kind = view.kind[matched[i]];
    out[kind][filled[kind]++] = matched[i];
  }
  return out;
}

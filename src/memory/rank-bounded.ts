/**
 * Bounded ranking: a section's first `depth` candidates from tight passes over the scope's
 * typed-array columns, without materialising every candidate as the full ranking does. It gives
 * exactly what scoreCandidates + topByPrecedence give (same signals, same totals, same order), so
 * retrieve uses it whenever only a prefix is needed and no signal is scaled over all candidates.
 *
 * The first pass keeps a heap of the best `depth` and rejects most candidates before computing
 * their recency: recency lies in [0, 1], so `retrievalScore(rel, 1, imp)` (0 for a negative
 * recency weight) bounds a candidate's total, and a candidate whose bound is below the worst kept
 * total cannot enter. Floating-point products and sums are monotone, so the bound holds for the
 * computed totals too. When fitting needs a deeper prefix (a `skip` section hunting for a memory
 * small enough for its last tokens), every candidate is scored once into typed arrays and each
 * deeper prefix is found by selection, not by a new heap pass.
 */
import { BoundedHeap, comparator } from "./heap.js";
import { type Candidates, candidatePrecedes, emptyCandidates, kindDecays, pickCandidates } from "./rank.js";
import type { RelevanceScores } from "./relevance/index.js";
import { importanceScore, recencyScore, retrievalScore } from "./scoring.js";
import type { ScopeIndex } from "./store/index-columns.js";
import type { ScoreConfig, SectionRule } from "./types.js";

/** Whether bounded ranking gives the same result as the full ranking for this config. */
export function canRankBounded(config: ScoreConfig): boolean {
  if (config.normalise !== "none") return false;
  if (!config.weights.every(Number.isFinite)) return false;
  // The bound assumes recency falls with age, i.e. a decay rate in [0, 1]; a rate above 1 makes
  // old memories score higher and would prune valid candidates, so it takes the full path.
  const decays = [config.decayRate, ...Object.values(config.kindDecay)];
  return decays.every((d) => typeof d === "number" && d >= 0 && d <= 1);
}

/** Deepest prefix found by a heap pass; deeper ones are selected from every candidate's score. */
const HEAP_PASS_MAX_DEPTH = 256;

export class BoundedSection {
  /** How many candidates the section has. */
  count = 0;
  /** The smallest token cost among them (+Infinity when there are none). */
  minCost = Number.POSITIVE_INFINITY;
  private readonly first: Candidates;
  private scored: Candidates | null = null;

  private readonly maxRel: number;
  private readonly decayOf: number[];
  private readonly byScore: boolean;

  constructor(
    private readonly index: ScopeIndex,
    private readonly kind: number | null,
    private readonly rule: SectionRule,
    private readonly config: ScoreConfig,
    private readonly relevance: RelevanceScores,
    private readonly now: number,
    private readonly depth: number,
  ) {
    this.maxRel = relevance.scaleToCandidates ? this.largestRelevance() : 0;
    this.decayOf = kindDecays(config);
    this.byScore = rule.order === "score";
    this.first = this.heapPass(Math.max(0, depth));
  }

  /** The first min(depth, count) candidates in section order. */
  top(depth: number): Candidates {
    if (depth <= this.depth || this.first.slots.length === this.count) {
      return depth >= this.first.slots.length ? this.first : slice(this.first, 0, depth);
    }
    // A moderately deeper prefix is still cheapest by a pruned heap pass; past that, scoring
    // every candidate once and selecting from the scores beats repeated passes.
    if (depth <= HEAP_PASS_MAX_DEPTH && this.scored === null) return this.heapPass(depth);
    this.scored ??= this.scoreAll();
    return selectTop(this.index, this.scored, depth, this.byScore);
  }

  /**
   * Visits each candidate once, as (slot, rel): matched slots first when relevance has them
   * (they carry relevance, so they raise the bar the rest must pass), then the rest of the
   * kind's slots. `relevantOnly` skips candidates with relevance ≤ 0; relevance is divided by
   * `maxRel` when that is above 0.
   */
  private forEachCandidate(
    visit: (slot: number, rel: number) => void,
    relevantOnly = this.rule.requireRelevance,
    maxRel = this.maxRel,
  ): void {
    const { index, kind, now } = this;
    const { values, matched } = this.relevance;
    const { current, expiresAt } = index;
    const kindOf = index.kind;
    const scale = maxRel > 0;
    if (matched !== null) {
      for (let i = 0; i < matched.length; i++) {
        const slot = matched[i];
        const raw = values[slot];
        if (!(raw > 0) || current[slot] !== 1 || !(expiresAt[slot] > now)) continue;
        if (kind !== null && kindOf[slot] !== kind) continue;
        visit(slot, scale ? raw / maxRel : raw);
      }
      // Outside `matched` relevance is 0, which `relevantOnly` excludes.
      if (relevantOnly) return;
    }
    const list = kind === null ? null : index.kindSlots[kind];
    const length = list === null ? index.size : list.length;
    const slots = list === null ? null : list.slots;
    const skipMatched = matched !== null;
    for (let i = 0; i < length; i++) {
      const slot = slots === null ? i : slots[i];
      const raw = values[slot];
      if (skipMatched && raw > 0) continue;
      if (current[slot] !== 1 || !(expiresAt[slot] > now)) continue;
      if (kind !== null && kindOf[slot] !== kind) continue;
      const rel = scale ? raw / maxRel : raw;
      if (relevantOnly && !(rel > 0)) continue;
      visit(slot, rel);
    }
  }

  /**
   * bm25 divides by the largest raw relevance among the section's candidates (0 when none is
   * positive, so only candidates with relevance > 0 need visiting).
   */
  private largestRelevance(): number {
    let max = 0;
    this.forEachCandidate((_, raw) => {
      if (raw > max) max = raw;
    }, true, 0);
    return max;
  }

  /** Writes entry `at` of `out`: `slot` with relevance `rel`, importance `imp`, its recency and total. */
  private setEntry(out: Candidates, at: number, slot: number, rel: number, imp: number): void {
    const { index, config } = this;
    const rec = recencyScore(this.now, index.lastAccessedAt[slot], this.decayOf[index.kind[slot]], config.unitMs);
    out.slots[at] = slot;
    out.rel[at] = rel;
    out.rec[at] = rec;
    out.imp[at] = imp;
    out.total[at] = retrievalScore(rel, rec, imp, config.weights);
  }

  private heapPass(size: number): Candidates {
    const { index, config, now, byScore, decayOf } = this;
    const { tokens, importance, lastAccessedAt, createdAt } = index;
    const kindOf = index.kind;
    const { weights, unitMs } = config;
    const recBound = weights[1] >= 0 ? 1 : 0;
    /** ln(1 / decay) per kind: 0 for no decay, +Infinity for decay 0. */
    const decayLog = decayOf.map((d) => -Math.log(d));
    // Entries live in a pool of size + 1 positions; the heap holds the kept ones, and `spare` is a
    // free one where the candidate under test is scored (the one evicted or rejected becomes it).
    const pool = emptyCandidates(size + 1);
    const precedes = (a: number, b: number) => candidatePrecedes(index, pool, a, b, byScore);
    const heap = new BoundedHeap(size, precedes);
    let spare = 0;
    // Once the heap is full, the worst kept entry's key (total, or createdAt for `newest`) is the
    // bar a candidate must reach; held here so that rejecting a candidate reads no heap.
    let full = false;
    let bar = 0;
    const raiseBar = () => {
      const worst = heap.worst;
      bar = byScore ? pool.total[worst] : createdAt[pool.slots[worst]];
    };

    // The bound is retrievalScore's own expression with recency at a bound, written inline: it
    // runs for every candidate and most fail it.
    const [w0, w1, w2] = weights;
    const cannotEnter = (slot: number, rel: number, imp: number): boolean => {
      if (!byScore) return createdAt[slot] < bar;
      if (w0 * rel + w1 * recBound + w2 * imp < bar) return true;
      if (w1 <= 0) return false;
      // A finer bound without pow: d^x = e^(−x·ln(1/d)) ≤ 1 / (1 + x·ln(1/d)); the margin
      // covers the rounding on both sides.
      const units = (now - lastAccessedAt[slot]) / unitMs;
      if (units <= 0) return false;
      const recUpper = (1 + 1e-9) / (1 + units * decayLog[kindOf[slot]]);
      return w0 * rel + w1 * recUpper + w2 * imp < bar;
    };
    let count = 0;
    let minCost = Number.POSITIVE_INFINITY;
    this.forEachCandidate((slot, rel) => {
      count++;
      if (tokens[slot] < minCost) minCost = tokens[slot];
      if (size === 0) return;
      const imp = importanceScore(importance[slot]);
      if (full && cannotEnter(slot, rel, imp)) return;
      this.setEntry(pool, spare, slot, rel, imp);
      if (!full) {
        heap.push(spare);
        spare = heap.length;
        full = heap.full;
        if (full) raiseBar();
      } else if (precedes(spare, heap.worst)) {
        spare = heap.replaceWorst(spare);
        raiseBar();
      }
    });
    this.count = count;
    this.minCost = minCost;
    return pickCandidates(pool, heap.sorted());
  }

  /** Every candidate with its signals, in visiting order. */
  private scoreAll(): Candidates {
    const importance = this.index.importance;
    const out = emptyCandidates(this.count);
    let j = 0;
    this.forEachCandidate((slot, rel) => this.setEntry(out, j++, slot, rel, importanceScore(importance[slot])));
    return out;
  }
}

/**
 * The first `depth` entries of `all` in section order: the depth-th largest primary key by
 * selection, then a sort of only the entries at or above it (ties on the key are settled by the
 * full order).
 */
function selectTop(index: ScopeIndex, all: Candidates, depth: number, byScore: boolean): Candidates {
  const n = all.slots.length;
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) key[i] = byScore ? all.total[i] : index.createdAt[all.slots[i]];
  let picked: number[];
  if (depth >= n) {
    picked = Array.from({ length: n }, (_, i) => i);
  } else {
    const threshold = kthLargest(key.slice(), depth);
    picked = [];
    for (let i = 0; i < n; i++) if (key[i] >= threshold) picked.push(i);
  }
  picked.sort(comparator((a, b) => candidatePrecedes(index, all, a, b, byScore)));
  return pickCandidates(all, picked.slice(0, depth));
}

/** The k-th largest value (1-based) of `values`, which it reorders (Hoare's quickselect). */
function kthLargest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  const target = k - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] > pivot) i++;
      while (values[j] < pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i] = values[j];
        values[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return values[target];
  }
  return values[target];
}

function slice(c: Candidates, from: number, to: number): Candidates {
  return {
    slots: c.slots.slice(from, to),
    rel: c.rel.slice(from, to),
    rec: c.rec.slice(from, to),
    imp: c.imp.slice(from, to),
    total: c.total.slice(from, to),
  };
}

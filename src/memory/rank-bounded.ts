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
import { type Candidates, pickCandidates } from "./rank.js";
import type { RelevanceScores } from "./relevance/index.js";
import { importanceScore, recencyScore, retrievalScore } from "./scoring.js";
import type { ScopeIndex } from "./store/index-columns.js";
import { KINDS, type ScoreConfig, type SectionRule } from "./types.js";

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
    this.decayOf = KINDS.map((k) => config.kindDecay[k] ?? config.decayRate);
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
   * kind's slots.
   */
  private forEachCandidate(visit: (slot: number, rel: number) => void): void {
    const { index, kind, now, rule, relevance } = this;
    const { values, matched } = relevance;
    const { current, expiresAt } = index;
    const kindOf = index.kind;
    const scale = relevance.scaleToCandidates && this.maxRel > 0;
    const maxRel = this.maxRel;
    const requireRelevance = rule.requireRelevance;
    if (matched !== null) {
      for (let i = 0; i < matched.length; i++) {
        const slot = matched[i];
        const raw = values[slot];
        if (!(raw > 0) || current[slot] !== 1 || !(expiresAt[slot] > now)) continue;
        if (kind !== null && kindOf[slot] !== kind) continue;
        visit(slot, scale ? raw / maxRel : raw);
      }
      // Outside `matched` relevance is 0, which a section that requires relevance excludes.
      if (requireRelevance) return;
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
      if (requireRelevance && !(rel > 0)) continue;
      visit(slot, rel);
    }
  }

  /** bm25 divides by the largest raw relevance among the section's candidates. */
  private largestRelevance(): number {
    const { index, kind, now } = this;
    const { values, matched } = this.relevance;
    const candidate = (slot: number) =>
      (kind === null || index.kind[slot] === kind) && index.current[slot] === 1 && index.expiresAt[slot] > now;
    let max = 0;
    if (matched !== null) {
      for (let i = 0; i < matched.length; i++) {
        const slot = matched[i];
        if (values[slot] > max && candidate(slot)) max = values[slot];
      }
    } else {
      for (let slot = 0; slot < index.size; slot++) if (values[slot] > max && candidate(slot)) max = values[slot];
    }
    return max;
  }

  private heapPass(size: number): Candidates {
    const { index, config, now, byScore, decayOf } = this;
    const { tokens, importance, lastAccessedAt, createdAt } = index;
    const kindOf = index.kind;
    const { weights, unitMs } = config;
    const recBound = weights[1] >= 0 ? 1 : 0;
    /** ln(1 / decay) per kind: 0 for no decay, +Infinity for decay 0. */
    const decayLog = decayOf.map((d) => -Math.log(d));
    // Entries live in a pool (position `size` is scratch for the candidate under test); the heap
    // holds pool positions with the worst kept entry at its root.
    const pool = emptyCandidates(size + 1);
    const heap = new Int32Array(size);
    let filled = 0;
    const precedes = (a: number, b: number) => precedesAt(index, pool, a, b, byScore);
    const swap = (i: number, j: number) => {
      const t = heap[i];
      heap[i] = heap[j];
      heap[j] = t;
    };
    const siftUp = (i: number) => {
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!precedes(heap[parent], heap[i])) return;
        swap(i, parent);
        i = parent;
      }
    };
    const siftDown = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let worst = i;
        if (l < filled && precedes(heap[worst], heap[l])) worst = l;
        if (r < filled && precedes(heap[worst], heap[r])) worst = r;
        if (worst === i) return;
        swap(i, worst);
        i = worst;
      }
    };
    const offer = (slot: number, rel: number, imp: number) => {
      const rec = recencyScore(now, lastAccessedAt[slot], decayOf[kindOf[slot]], unitMs);
      const full = filled === size;
      const at = full ? size : filled;
      pool.slots[at] = slot;
      pool.rel[at] = rel;
      pool.rec[at] = rec;
      pool.imp[at] = imp;
      pool.total[at] = retrievalScore(rel, rec, imp, weights);
      if (!full) {
        heap[filled++] = at;
        siftUp(filled - 1);
      } else if (precedes(size, heap[0])) {
        copyEntry(pool, size, heap[0]);
        siftDown(0);
      }
    };

    // The bound is retrievalScore's own expression with recency at a bound, written inline: it
    // runs for every candidate and most fail it.
    const [w0, w1, w2] = weights;
    const cannotEnter = (slot: number, rel: number): boolean => {
      const worst = heap[0];
      if (!byScore) return createdAt[slot] < createdAt[pool.slots[worst]];
      const bar = pool.total[worst];
      const imp = Math.min(1, Math.max(0, importance[slot] / 10));
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
      if (size === 0 || (filled === size && cannotEnter(slot, rel))) return;
      offer(slot, rel, importanceScore(importance[slot]));
    });
    this.count = count;
    this.minCost = minCost;
    const order = Array.from(heap.subarray(0, filled)).sort((a, b) => (precedes(a, b) ? -1 : 1));
    return pickCandidates(pool, order);
  }

  /** Every candidate with its signals, in visiting order. */
  private scoreAll(): Candidates {
    const { index, config, now, decayOf } = this;
    const out = emptyCandidates(this.count);
    let j = 0;
    this.forEachCandidate((slot, rel) => {
      const rec = recencyScore(now, index.lastAccessedAt[slot], decayOf[index.kind[slot]], config.unitMs);
      const imp = importanceScore(index.importance[slot]);
      out.slots[j] = slot;
      out.rel[j] = rel;
      out.rec[j] = rec;
      out.imp[j] = imp;
      out.total[j] = retrievalScore(rel, rec, imp, config.weights);
      j++;
    });
    return out;
  }
}

/** The section order (as rank.ts's precedence) between two entries of `c`. */
function precedesAt(index: ScopeIndex, c: Candidates, a: number, b: number, byScore: boolean): boolean {
  const sa = c.slots[a];
  const sb = c.slots[b];
  if (byScore) {
    if (c.total[a] !== c.total[b]) return c.total[a] > c.total[b];
  } else if (index.createdAt[sa] !== index.createdAt[sb]) {
    return index.createdAt[sa] > index.createdAt[sb];
  }
  const wa = when(index, sa);
  const wb = when(index, sb);
  if (wa !== wb) return wa > wb;
  return index.ids[sa] < index.ids[sb];
}

function when(index: ScopeIndex, slot: number): number {
  const occurred = index.occurredAt[slot];
  return Number.isNaN(occurred) ? index.createdAt[slot] : occurred;
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
  picked.sort((a, b) => (precedesAt(index, all, a, b, byScore) ? -1 : 1));
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

function emptyCandidates(n: number): Candidates {
  return {
    slots: new Int32Array(n),
    rel: new Float64Array(n),
    rec: new Float64Array(n),
    imp: new Float64Array(n),
    total: new Float64Array(n),
  };
}

function copyEntry(c: Candidates, from: number, to: number): void {
  c.slots[to] = c.slots[from];
  c.rel[to] = c.rel[from];
  c.rec[to] = c.rec[from];
  c.imp[to] = c.imp[from];
  c.total[to] = c.total[from];
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

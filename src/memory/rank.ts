/**
 * Ranking one section: choose its candidates from the scope index, compute each signal, combine
 * them, and order them. Ordering uses a bounded heap when only a prefix is needed, so a query over
 * a large store does not sort every memory.
 */
import type { RelevanceScores } from "./relevance/index.js";
import { importanceScore, recencyScore, retrievalScore } from "./scoring.js";
import type { ScopeIndex } from "./store/index-columns.js";
import { KINDS, type ScoreConfig, type SectionRule } from "./types.js";

/** A section's candidates and their signals, as parallel arrays. */
export interface Candidates {
  slots: Int32Array;
  rel: Float64Array;
  rec: Float64Array;
  imp: Float64Array;
  total: Float64Array;
}

/** The entries of `c` at `positions`, in that order. */
export function pickCandidates(c: Candidates, positions: readonly number[]): Candidates {
  const n = positions.length;
  const out: Candidates = {
    slots: new Int32Array(n),
    rel: new Float64Array(n),
    rec: new Float64Array(n),
    imp: new Float64Array(n),
    total: new Float64Array(n),
  };
  positions.forEach((p, i) => {
    out.slots[i] = c.slots[p];
    out.rel[i] = c.rel[p];
    out.rec[i] = c.rec[p];
    out.imp[i] = c.imp[p];
    out.total[i] = c.total[p];
  });
  return out;
}

/**
 * Candidates of one section: current memories of `kind` (any kind when null), restricted to
 * relevance > 0 when the rule asks for it.
 */
export function scoreCandidates(
  index: ScopeIndex,
  kind: number | null,
  rule: SectionRule,
  config: ScoreConfig,
  relevance: RelevanceScores,
  now: number,
): Candidates {
  const pool = rule.requireRelevance && relevance.matched !== null ? relevance.matched : null;
  const chosen: number[] = [];
  const visit = (slot: number) => {
    if (kind !== null && index.kind[slot] !== kind) return;
    if (!index.isCurrent(slot, now)) return;
    chosen.push(slot);
  };
  if (pool !== null) for (const slot of pool) visit(slot);
  else for (let slot = 0; slot < index.size; slot++) visit(slot);

  const n = chosen.length;
  const rel = new Float64Array(n);
  let maxRel = 0;
  for (let i = 0; i < n; i++) {
    rel[i] = relevance.values[chosen[i]];
    if (rel[i] > maxRel) maxRel = rel[i];
  }
  if (relevance.scaleToCandidates && maxRel > 0) for (let i = 0; i < n; i++) rel[i] /= maxRel;

  const keep: number[] = [];
  for (let i = 0; i < n; i++) if (!rule.requireRelevance || rel[i] > 0) keep.push(i);
  const m = keep.length;
  const out: Candidates = {
    slots: new Int32Array(m),
    rel: new Float64Array(m),
    rec: new Float64Array(m),
    imp: new Float64Array(m),
    total: new Float64Array(m),
  };
  for (let j = 0; j < m; j++) {
    const slot = chosen[keep[j]];
    out.slots[j] = slot;
    out.rel[j] = rel[keep[j]];
    const decay = config.kindDecay[KINDS[index.kind[slot]]] ?? config.decayRate;
    out.rec[j] = recencyScore(now, index.lastAccessedAt[slot], decay, config.unitMs);
    out.imp[j] = importanceScore(index.importance[slot]);
  }
  if (config.normalise === "minmax") {
    minmax(out.rel);
    minmax(out.rec);
    minmax(out.imp);
  }
  for (let j = 0; j < m; j++) {
    out.total[j] = retrievalScore(out.rel[j], out.rec[j], out.imp[j], config.weights);
  }
  return out;
}

/** Scales values to [0, 1] over one query's candidates; all equal → 0.5. */
export function minmax(values: Float64Array): void {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  for (let i = 0; i < values.length; i++) {
    values[i] = max === min ? 0.5 : (values[i] - min) / (max - min);
  }
}

/** `a` before `b`? A strict total order over candidate indices. */
export type Precedes = (a: number, b: number) => boolean;

/**
 * The section order: by score (or createdAt for `newest`), then newer first (occurredAt ??
 * createdAt), then id ascending, so equal scores never depend on insertion order.
 */
export function precedence(
  index: ScopeIndex,
  candidates: Candidates,
  order: SectionRule["order"],
): Precedes {
  const { slots, total } = candidates;
  const when = (slot: number) => {
    const occurred = index.occurredAt[slot];
    return Number.isNaN(occurred) ? index.createdAt[slot] : occurred;
  };
  return (a, b) => {
    const sa = slots[a];
    const sb = slots[b];
    if (order === "score") {
      if (total[a] !== total[b]) return total[a] > total[b];
    } else if (index.createdAt[sa] !== index.createdAt[sb]) {
      return index.createdAt[sa] > index.createdAt[sb];
    }
    const wa = when(sa);
    const wb = when(sb);
    if (wa !== wb) return wa > wb;
    return index.ids[sa] < index.ids[sb];
  };
}

/** The first `depth` of `count` candidates in order (all of them when depth ≥ count). */
export function topByPrecedence(count: number, depth: number, precedes: Precedes): number[] {
  const byOrder = (a: number, b: number) => (a === b ? 0 : precedes(a, b) ? -1 : 1);
  if (depth >= count) return Array.from({ length: count }, (_, i) => i).sort(byOrder);
  // A heap of the best `depth` so far with the worst of them at the root.
  const heap: number[] = [];
  const worse = (a: number, b: number) => precedes(b, a);
  const siftUp = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  };
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && worse(heap[l], heap[worst])) worst = l;
      if (r < heap.length && worse(heap[r], heap[worst])) worst = r;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst], heap[i]];
      i = worst;
    }
  };
  for (let c = 0; c < count; c++) {
    if (heap.length < depth) {
      heap.push(c);
      siftUp(heap.length - 1);
    } else if (depth > 0 && precedes(c, heap[0])) {
      heap[0] = c;
      siftDown(0);
    }
  }
  return heap.sort(byOrder);
}

/**
 * Ranking one section: choose its candidates from the scope index, compute each signal, combine
 * them, and order them. Ordering uses a bounded heap when only a prefix is needed, so a query over
 * a large store does not sort every memory.
 */
import { BoundedHeap, comparator, type Precedes } from "./heap.js";
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

/** `n` zeroed entries. */
export function emptyCandidates(n: number): Candidates {
  return {
    slots: new Int32Array(n),
    rel: new Float64Array(n),
    rec: new Float64Array(n),
    imp: new Float64Array(n),
    total: new Float64Array(n),
  };
}

/** The entries of `c` at `positions`, in that order. */
export function pickCandidates(c: Candidates, positions: readonly number[]): Candidates {
  const out = emptyCandidates(positions.length);
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
  const out = emptyCandidates(m);
  const decayOf = kindDecays(config);
  for (let j = 0; j < m; j++) {
    const slot = chosen[keep[j]];
    out.slots[j] = slot;
    out.rel[j] = rel[keep[j]];
    out.rec[j] = recencyScore(now, index.lastAccessedAt[slot], decayOf[index.kind[slot]], config.unitMs);
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

/** Each kind's recency decay rate, indexed by kind code. */
export function kindDecays(config: ScoreConfig): number[] {
  return KINDS.map((k) => config.kindDecay[k] ?? config.decayRate);
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

/** When a memory's event happened: occurredAt, or createdAt when it has none. */
export function eventTime(index: ScopeIndex, slot: number): number {
  const occurred = index.occurredAt[slot];
  return Number.isNaN(occurred) ? index.createdAt[slot] : occurred;
}

/**
 * The section order between entries `a` and `b` of `c`: by score (by createdAt when not
 * `byScore`, the `newest` order), then newer first by event time, then id ascending, so equal
 * scores never depend on insertion order.
 */
export function candidatePrecedes(
  index: ScopeIndex,
  c: Candidates,
  a: number,
  b: number,
  byScore: boolean,
): boolean {
  const sa = c.slots[a];
  const sb = c.slots[b];
  if (byScore) {
    if (c.total[a] !== c.total[b]) return c.total[a] > c.total[b];
  } else if (index.createdAt[sa] !== index.createdAt[sb]) {
    return index.createdAt[sa] > index.createdAt[sb];
  }
  const wa = eventTime(index, sa);
  const wb = eventTime(index, sb);
  if (wa !== wb) return wa > wb;
  return index.ids[sa] < index.ids[sb];
}

/** The section order over candidate indices (see candidatePrecedes). */
export function precedence(index: ScopeIndex, candidates: Candidates, order: SectionRule["order"]): Precedes {
  const byScore = order === "score";
  return (a, b) => candidatePrecedes(index, candidates, a, b, byScore);
}

/** The first `depth` of `count` candidates in order (all of them when depth ≥ count). */
export function topByPrecedence(count: number, depth: number, precedes: Precedes): number[] {
  if (depth >= count) return Array.from({ length: count }, (_, i) => i).sort(comparator(precedes));
  const heap = new BoundedHeap(depth, precedes);
  for (let c = 0; c < count; c++) heap.offer(c);
  return heap.sorted();
}

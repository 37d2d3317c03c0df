/**
 * Which memories a section may rank, ranked entries as parallel arrays, and the one order every
 * section uses: by score (or by write time for `newest`), then newer first by event time, then id,
 * so that equal scores never depend on insertion order.
 */
import type { RankView } from "./view.js";

/** What a section asks of a candidate besides being current. */
export interface CandidateRule {
  /** The section's kind code; null for a pooled section, which takes every kind. */
  readonly kind: number | null;
  /** Only memories with relevance above 0. */
  readonly requireRelevance: boolean;
}

/** Every current memory: what relevance backends score, and a pooled section with no relevance rule takes. */
export const ANY_CURRENT: CandidateRule = { kind: null, requireRelevance: false };

/**
 * Whether `slot` is a candidate at `now` under `rule`: current (not superseded, not expired), of
 * the rule's kind, and relevant when the rule asks for it, `rel` being its relevance. Every walk
 * over the columns decides it here, so retrieval and relevance scoring cannot disagree on what is
 * current. Small enough for V8 to inline into the hot loops that call it.
 */
export function isCandidate(view: Pick<RankView, "current" | "expiresAt" | "kind">, slot: number, now: number, rule: CandidateRule = ANY_CURRENT, rel = 0): boolean {
  return view.current[slot] === 1 && view.expiresAt[slot] > now && (rule.kind === null || view.kind[slot] === rule.kind) && (!rule.requireRelevance || rel > 0);
}

/**
 * Entries with their signals, as parallel arrays. Plain arrays rather than typed ones: a ranking
 * makes several small sets of entries, and a small typed array costs several times as much to
 * make as the whole ranking's arithmetic on it. They grow as entries are written past their end.
 */
export interface Candidates {
  slots: number[];
  rel: number[];
  rec: number[];
  imp: number[];
  total: number[];
}

/** `n` zeroed entries. */
export function emptyCandidates(n: number): Candidates {
  return { slots: zeros(n), rel: zeros(n), rec: zeros(n), imp: zeros(n), total: zeros(n) };
}

const zeros = (n: number) => new Array<number>(n).fill(0);

/** The entries of `c` at `positions`, in that order. */
export function pickCandidates(c: Candidates, positions: readonly number[]): Candidates {
  return {
    slots: positions.map((p) => c.slots[p]),
    rel: positions.map((p) => c.rel[p]),
    rec: positions.map((p) => c.rec[p]),
    imp: positions.map((p) => c.imp[p]),
    total: positions.map((p) => c.total[p]),
  };
}

/** When a memory's event happened: occurredAt, or createdAt when it has none. */
export function eventTime(view: RankView, slot: number): number {
  const occurred = view.occurredAt[slot];
  return Number.isNaN(occurred) ? view.createdAt[slot] : occurred;
}

/**
 * Whether entry `a` of `c` comes before entry `b` in section order: by score (by createdAt when
 * not `byScore`, the `newest` order), then newer first by event time, then id ascending.
 */
export function candidatePrecedes(view: RankView, c: Candidates, a: number, b: number, byScore: boolean): boolean {
  return entryPrecedes(view, c.total[a], c.slots[a], c.total[b], c.slots[b], byScore);
}

/** The same order over (total, slot) pairs, for an entry that lives outside the candidates. */
export function entryPrecedes(view: RankView, totalA: number, sa: number, totalB: number, sb: number, byScore: boolean): boolean {
  if (byScore) {
    if (totalA !== totalB) return totalA > totalB;
  } else if (view.createdAt[sa] !== view.createdAt[sb]) {
    return view.createdAt[sa] > view.createdAt[sb];
  }
  const wa = eventTime(view, sa);
  const wb = eventTime(view, sb);
  if (wa !== wb) return wa > wb;
  return view.ids[sa] < view.ids[sb];
}

/**
 * Ranked entries as parallel arrays, and the one order every section uses: by score (or by write
 * time for `newest`), then newer first by event time, then id, so that equal scores never depend
 * on insertion order.
 */
import type { RankView } from "./view.js";

/** Entries with their signals, as parallel arrays. */
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

/** `c` with room for at least `n` entries, keeping its first `keep`. */
export function reserveCandidates(c: Candidates, n: number, keep: number): Candidates {
  if (n <= c.slots.length) return c;
  const out = emptyCandidates(Math.max(n, c.slots.length * 2));
  out.slots.set(c.slots.subarray(0, keep));
  out.rel.set(c.rel.subarray(0, keep));
  out.rec.set(c.rec.subarray(0, keep));
  out.imp.set(c.imp.subarray(0, keep));
  out.total.set(c.total.subarray(0, keep));
  return out;
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

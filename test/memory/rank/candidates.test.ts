import { describe, expect, it } from "vitest";
import {
  ANY_CURRENT,
  candidatePrecedes,
  emptyCandidates,
  entryPrecedes,
  eventTime,
  isCandidate,
  pickCandidates,
} from "../../../src/memory/rank/candidates.js";
import type { RankView } from "../../../src/memory/rank/view.js";

// Only the columns the section order reads; ranking views carry more.
function view(rows: { id: string; createdAt: number; occurredAt?: number }[]): RankView {
  return {
    size: rows.length,
    ids: rows.map((r) => r.id),
    createdAt: Float64Array.from(rows, (r) => r.createdAt),
    occurredAt: Float64Array.from(rows, (r) => r.occurredAt ?? NaN),
  } as unknown as RankView;
}

describe("isCandidate", () => {
  // Slots: a current fact, a corrected fact, a fact that expires at 100, a current event.
  const columns = {
    current: Uint8Array.from([1, 0, 1, 1]),
    expiresAt: Float64Array.from([Infinity, Infinity, 100, Infinity]),
    kind: Uint8Array.from([1, 1, 1, 2]),
  };
  const slots = [0, 1, 2, 3];

  it("takes every current memory by default: neither corrected nor expired at `now`", () => {
    expect(slots.map((slot) => isCandidate(columns, slot, 99))).toEqual([true, false, true, true]);
    // Expired at the moment itself.
    expect(slots.map((slot) => isCandidate(columns, slot, 100))).toEqual([true, false, false, true]);
    expect(slots.map((slot) => isCandidate(columns, slot, 99, ANY_CURRENT, 0))).toEqual([true, false, true, true]);
  });

  it("takes only the section's kind, and every kind when the section is pooled", () => {
    expect(slots.map((slot) => isCandidate(columns, slot, 0, { kind: 2, requireRelevance: false }))).toEqual([false, false, false, true]);
    expect(slots.map((slot) => isCandidate(columns, slot, 0, { kind: null, requireRelevance: false }))).toEqual([true, false, true, true]);
  });

  it("takes only memories with relevance above 0 when the rule requires it, and never a memory that is not current", () => {
    const relevant = { kind: 1, requireRelevance: true };
    expect([0.5, 0, -1, Number.NaN].map((rel) => isCandidate(columns, 0, 0, relevant, rel))).toEqual([true, false, false, false]);
    expect(isCandidate(columns, 0, 0, { kind: 1, requireRelevance: false }, 0)).toBe(true);
    expect(isCandidate(columns, 1, 0, relevant, 1)).toBe(false);
  });
});

describe("eventTime", () => {
  it("is when the event happened, or when the memory was written if it has no event time", () => {
    const v = view([
      { id: "a", createdAt: 50, occurredAt: 10 },
      { id: "b", createdAt: 50 },
    ]);
    expect(eventTime(v, 0)).toBe(10);
    expect(eventTime(v, 1)).toBe(50);
  });
});

describe("the section order", () => {
  const v = view([
    { id: "old", createdAt: 1, occurredAt: 5 },
    { id: "new", createdAt: 2, occurredAt: 1 },
    { id: "b", createdAt: 2, occurredAt: 3 },
    { id: "a", createdAt: 2, occurredAt: 3 },
  ]);
  const precedes = (total: number[], a: number, b: number, byScore = true) => entryPrecedes(v, total[a], a, total[b], b, byScore);

  it("by score puts the higher total first, whatever the times", () => {
    expect(precedes([0.9, 0.1, 0, 0], 0, 1)).toBe(true);
    expect(precedes([0.9, 0.1, 0, 0], 1, 0)).toBe(false);
  });

  it("on equal scores puts the more recent event first, then the smaller id", () => {
    expect(precedes([1, 1, 1, 1], 0, 1)).toBe(true); // event 5 before event 1
    expect(precedes([1, 1, 1, 1], 1, 0)).toBe(false);
    expect(precedes([1, 1, 1, 1], 3, 2)).toBe(true); // same event time: "a" before "b"
    expect(precedes([1, 1, 1, 1], 2, 3)).toBe(false);
  });

  it("never puts an entry before itself", () => expect(precedes([1, 1, 1, 1], 2, 2)).toBe(false));

  it("newest-first ignores the score and puts the later write first, then the tie-breaks", () => {
    expect(precedes([0, 9, 0, 0], 1, 0, false)).toBe(true);
    expect(precedes([9, 0, 0, 0], 0, 1, false)).toBe(false);
    expect(precedes([0, 0, 0, 9], 2, 1, false)).toBe(true); // same write time: event 3 before event 1
    expect(precedes([0, 0, 9, 0], 3, 2, false)).toBe(true); // and then the id
  });

  it("reads the totals and slots of candidates by position", () => {
    const c = { ...emptyCandidates(2), slots: [3, 2], total: [1, 1] };
    expect(candidatePrecedes(v, c, 0, 1, true)).toBe(true); // slot 3 ("a") before slot 2 ("b")
    expect(candidatePrecedes(v, c, 1, 0, true)).toBe(false);
  });
});

describe("candidate arrays", () => {
  const filled = () => ({
    slots: [7, 8, 9],
    rel: [0.1, 0.2, 0.3],
    rec: [0.4, 0.5, 0.6],
    imp: [0.7, 0.8, 0.9],
    total: [1.2, 1.5, 1.8],
  });
  const rows = (c: ReturnType<typeof emptyCandidates>) =>
    [...c.slots].map((slot, i) => [slot, c.rel[i], c.rec[i], c.imp[i], c.total[i]]);

  it("start zeroed, n long", () => expect(rows(emptyCandidates(2))).toEqual([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]));

  it("pick whole entries, in the order asked", () => {
    expect(rows(pickCandidates(filled(), [2, 0]))).toEqual([
      [9, 0.3, 0.6, 0.9, 1.8],
      [7, 0.1, 0.4, 0.7, 1.2],
    ]);
  });

  it("grow as entries are written past their end", () => {
    const c = filled();
    c.slots[3] = 5;
    c.total[3] = 2;
    expect(c.slots).toEqual([7, 8, 9, 5]);
    expect(c.total).toEqual([1.2, 1.5, 1.8, 2]);
  });
});

/**
 * The one ranker visits only memories that can place, yet gives exactly the full scan's sections
 * and ranks: over random stores large enough for its bounds to prune, with many ties (whole-hour
 * times, integer importance, a small vocabulary), touches that move memories in the access order
 * (the clock also goes back), writes between queries, corrections and expiry, and every kind of
 * policy: negative and zero weights, decay rates of 0, below 1, 1 and above 1, min-max scaling,
 * `newest` order, quotas that make `skip` walk deep, and located memories at any depth.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fullPolicy, streamPreset } from "../../../src/memory/presets.js";
import { byRelevance, SectionRanking } from "../../../src/memory/rank/section-ranking.js";
import { bm25Relevance } from "../../../src/memory/relevance/bm25.js";
import { wordsRelevance } from "../../../src/memory/relevance/words.js";
import { openStore, scopeIndex } from "../../../src/memory/store/store.js";
import type { TokenCounter } from "../../../src/memory/tokenizer.js";
import { KINDS, type Kind, type NewMemory, type RelevanceBackendName, type RetrievalPolicy } from "../../../src/memory/types.js";
import { HOUR, T0 } from "../helpers.js";
import { expectRetrieveMatchesScan, scanRetrieve } from "../reference-scan.js";

/** Ranking reads token costs but does not care how they were counted. */
const fourCharacters: TokenCounter = { count: (text) => Math.ceil(text.length / 4) };
const MODEL = "test-embedder";

/** A deterministic stream of small integers from `seed`. */
function draws(seed: number) {
  let state = seed >>> 0 || 1;
  return (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}

const WORDS = Array.from({ length: 40 }, (_, i) => `w${i}`);

function memories(seed: number, count: number, first: number, now: number): NewMemory[] {
  const next = draws(seed);
  const sentence = (length: number) => Array.from({ length }, () => WORDS[Math.min(next(40), next(40))]).join(" ");
  return Array.from({ length: count }, (_, i) => ({
    id: `m${first + i}`,
    scope: "u",
    kind: KINDS[next(4)],
    text: sentence(1 + next(8)),
    createdAt: now - next(2_000) * HOUR,
    occurredAt: next(2) === 0 ? now - next(2_000) * HOUR : null,
    // Some memories were last used in the future (clock skew), most in the past.
    lastAccessedAt: now + (next(20) === 0 ? next(5) : -next(400)) * HOUR,
    // Mostly whole ratings (ties), some fractional (an importance level spans a range).
    importance: next(3) === 0 ? 1 + next(91) / 10 : 1 + next(10),
    expiresAt: next(40) === 0 ? now + (next(20) - 10) * HOUR : null,
    supersedes: first + i > 0 && next(60) === 0 ? `m${next(first + i)}` : null,
    embedding: next(10) === 0 ? null : { model: MODEL, vector: Array.from({ length: 4 }, () => next(7) - 3) },
  }));
}

/** `batch` with only corrections of memories written before and not corrected yet; notes its ids. */
function validCorrections(batch: NewMemory[], corrected: Set<string>, known: Set<string>): NewMemory[] {
  return batch.map((m) => {
    const target = m.supersedes ?? null;
    known.add(m.id as string);
    if (target === null || corrected.has(target) || !known.has(target) || target === m.id) return { ...m, supersedes: null };
    corrected.add(target);
    return m;
  });
}

const weight = fc.constantFrom(1, 0, 2, -1, 0.5);
const variant = fc.record({
  base: fc.constantFrom(fullPolicy, streamPreset, { ...streamPreset, mode: "per-kind" as const }),
  relevance: fc.constantFrom<RelevanceBackendName>("words", "bm25", "embedding"),
  weights: fc.tuple(weight, weight, weight),
  decay: fc.constantFrom(0.995, 0.9, 1, 0, 1.5),
  kindDecay: fc.constantFrom({}, { semantic: 1, procedural: 1 }, { episodic: 2, working: 0.5 }),
  normalise: fc.constantFrom("none" as const, "none" as const, "minmax" as const),
  recency: fc.constantFrom({}, {}, { recency: "rank" as const }, { recency: "rank" as const, recencyOrder: "ascending" as const }),
  quota: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
  limit: fc.integer({ min: 0, max: 12 }),
  fit: fc.constantFrom("stop" as const, "skip" as const),
  order: fc.constantFrom("score" as const, "score" as const, "newest" as const),
  requireRelevance: fc.boolean(),
  touch: fc.boolean(),
});

const step = fc.record({
  query: fc.array(fc.nat(39), { minLength: 1, maxLength: 4 }),
  advance: fc.integer({ min: -30, max: 60 }),
  writes: fc.nat(40),
  locate: fc.array(fc.nat(), { maxLength: 6 }),
  neighbours: fc.constantFrom(0, 0, 1, 2, 5),
  locateWithin: fc.constantFrom(undefined, undefined, 1, 3, 20),
});

describe("section ranking", () => {
  it("gives the full scan's sections and ranks, ties included, and the neighbours of located memories", () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 50, max: 1_500 }), variant, fc.array(step, { minLength: 1, maxLength: 5 }), (seed, size, v, steps) => {
        const rule = { order: v.order, fit: v.fit, limit: v.limit, quota: v.quota, requireRelevance: v.requireRelevance };
        const policy: RetrievalPolicy = {
          ...v.base,
          score: { ...v.base.score, relevance: v.relevance, weights: v.weights, decayRate: v.decay, kindDecay: v.kindDecay, normalise: v.normalise, ...v.recency },
          sections: { ...v.base.sections, episodic: { ...v.base.sections.episodic, ...rule } },
          pooled: { ...v.base.pooled, ...rule },
          touch: v.touch,
        };
        const store = openStore(":memory:", { tokenizer: fourCharacters });
        const corrected = new Set<string>();
        const known = new Set<string>();
        const write = (batch: NewMemory[]) => store.rememberMany(validCorrections(batch, corrected, known));
        let now = T0;
        write(memories(seed, size, 0, now));
        for (const s of steps) {
          now += s.advance * HOUR;
          const ids = [...known];
          const locate = s.locate.map((i) => ids[i % ids.length]);
          const query = { text: s.query.map((i) => WORDS[i]).join(" "), embedding: { model: MODEL, vector: [1, -2, 0, 3] } };
          const within = s.locateWithin === undefined ? {} : { locateWithin: s.locateWithin };
          expectRetrieveMatchesScan(store, { scope: "u", query, now, policy, locate, neighbours: s.neighbours, ...within });
          write(memories(seed + known.size, s.writes, known.size, now));
        }
        store.close();
      }),
      { numRuns: 60, seed: 20240602 },
    );
  });

  it("visits a small share of a large store for a top 5", () => {
    const store = openStore(":memory:", { tokenizer: fourCharacters });
    store.rememberMany(validCorrections(memories(3, 20_000, 0, T0), new Set(), new Set()));
    const index = scopeIndex(store, "u")!;
    const query = { text: "w3 w17" };
    const config = { ...streamPreset.score, relevance: "bm25" as const };
    const ranking = new SectionRanking(index, null, streamPreset.pooled, config, bm25Relevance({ index, query, now: T0, stopwords: true }), T0);
    const top = ranking.top(5);
    const policy: RetrievalPolicy = { ...streamPreset, score: config, touch: false };
    const scan = scanRetrieve(store, { scope: "u", query, now: T0, policy })[0];
    expect([...top.slots].map((slot) => index.ids[slot])).toEqual(scan.ranked.slice(0, 5).map((r) => r.id));
    expect(ranking.visited).toBeLessThan(20_000 / 10);
    store.close();
  });

  describe("visits only memories that can place", () => {
    /** Semantic memories that match no query word, each `[hours since last access, importance]`. */
    function unmatchedRanking(memories: [number, number][], weights: [number, number, number]) {
      const store = openStore(":memory:", { tokenizer: fourCharacters });
      store.rememberMany(memories.map(([hours, importance], i) => ({ id: `m${i}`, scope: "u", kind: "semantic", text: "fact", createdAt: T0 - hours * HOUR, importance })));
      const index = scopeIndex(store, "u")!;
      const config = { ...streamPreset.score, relevance: "words" as const, weights, decayRate: 0.5 };
      const relevance = wordsRelevance({ index, query: { text: "nothing" }, now: T0, stopwords: false });
      const ranking = new SectionRanking(index, null, streamPreset.pooled, config, relevance, T0);
      const ids = (depth: number) => [...ranking.top(depth).slots].map((slot) => index.ids[slot]);
      return { ranking, ids, close: () => store.close() };
    }

    it("walks unmatched memories newest first and stops at the k-th when recency counts for", () => {
      const { ranking, ids, close } = unmatchedRanking(Array.from({ length: 30 }, (_, h) => [h, 5]), [1, 1, 1]);
      expect(ids(3)).toEqual(["m0", "m1", "m2"]);
      expect(ranking.visited).toBe(3);
      close();
    });

    it("walks them oldest first when recency counts against", () => {
      const { ranking, ids, close } = unmatchedRanking(Array.from({ length: 30 }, (_, h) => [h, 5]), [1, -1, 1]);
      expect(ids(3)).toEqual(["m29", "m28", "m27"]);
      expect(ranking.visited).toBe(3);
      close();
    });

    it("moves between importance levels by their next bounds, so the first k visited are the k best", () => {
      // Totals (recency at decay 0.5 + importance): a0 1.6, b1 1.0, a2 0.85, a4 0.6625, b3 0.625, …
      const levels: [number, number][] = [[0, 6], [1, 5], [2, 6], [3, 5], [4, 6], [5, 5], [6, 6], [7, 5]];
      const { ranking, ids, close } = unmatchedRanking(levels, [1, 1, 1]);
      expect(ids(3)).toEqual(["m0", "m1", "m2"]);
      expect(ranking.visited).toBe(3);
      close();
    });

    it("passes over matched memories whose recency bound is below the bar, and unmatched ones that cannot reach it", () => {
      const store = openStore(":memory:", { tokenizer: fourCharacters });
      const fact = (id: string, text: string, hours: number) => ({ id, scope: "u", kind: "semantic" as const, text, createdAt: T0 - hours * HOUR, importance: 5 });
      store.rememberMany([
        ...Array.from({ length: 10 }, (_, h) => fact(`m${h}`, "apple", h)),
        ...Array.from({ length: 20 }, (_, h) => fact(`u${h}`, "pear", h)),
      ]);
      const index = scopeIndex(store, "u")!;
      const config = { ...streamPreset.score, relevance: "words" as const, weights: [1, 1, 1] as [number, number, number], decayRate: 0.5 };
      const relevance = wordsRelevance({ index, query: { text: "apple" }, now: T0, stopwords: false });
      const ranking = new SectionRanking(index, null, streamPreset.pooled, config, relevance, T0);
      expect([...ranking.top(3).slots].map((slot) => index.ids[slot])).toEqual(["m0", "m1", "m2"]);
      // The bar is m2's 1 + 0.25 + 0.5. Recency (1 + 1e-9) / (1 + h · ln 2) reaches it up to h = 4,
      // so m3 and m4 are scored and m5 to m9 are not; no unmatched memory exceeds 1 + 0.5.
      expect(ranking.visited).toBe(5);
      store.close();
    });

    it("stops at the relevance cutoff only in a walk ordered by relevance, and reads an unordered one to the end", () => {
      const store = openStore(":memory:", { tokenizer: fourCharacters });
      const texts: [string, number][] = [["apple pear", 9], ["apple", 8], ["apple pear", 7], ["apple", 6], ["apple pear", 1]];
      store.rememberMany(texts.map(([text, hours], i) => ({ id: `m${i}`, scope: "u", kind: "semantic", text, createdAt: T0 - hours * HOUR })));
      const index = scopeIndex(store, "u")!;
      const config = { ...streamPreset.score, relevance: "words" as const, weights: [1, 0, 0] as [number, number, number] };
      const relevance = wordsRelevance({ index, query: { text: "apple pear" }, now: T0, stopwords: false });
      const top2 = (options: { matched?: Int32Array; matchedByRelevance?: boolean }) =>
        [...new SectionRanking(index, null, streamPreset.pooled, config, relevance, T0, options).top(2).slots].map((slot) => index.ids[slot]);
      // m3 falls below the cutoff that m2 raises, yet m4, after it in slot order, ties for first and is newest.
      expect(top2({})).toEqual(["m4", "m2"]);
      const ordered = byRelevance(relevance.matched!, relevance.values);
      expect([...ordered]).toEqual([0, 2, 4, 1, 3]);
      expect([...relevance.matched!]).toEqual([0, 1, 2, 3, 4]);
      expect(top2({ matched: ordered, matchedByRelevance: true })).toEqual(["m4", "m2"]);
      // The order speaks of given slots only: the backend's own, in slot order, is read to the end.
      expect(top2({ matchedByRelevance: true })).toEqual(["m4", "m2"]);
      store.close();
    });

    it("divides relevance by the largest among the section's candidates when the backend gives no postings", () => {
      const store = openStore(":memory:", { tokenizer: fourCharacters });
      const fact = (id: string, expiresAt: number | null) => ({ id, scope: "u", kind: "semantic" as const, text: id, createdAt: T0 - HOUR, importance: 5, expiresAt });
      store.rememberMany([fact("a", null), fact("b", null), fact("c", null), fact("gone", T0 - HOUR)]);
      const index = scopeIndex(store, "u")!;
      const values = new Float64Array(index.size);
      for (const [id, raw] of [["a", 2], ["b", 4], ["c", 1], ["gone", 8]] as const) values[index.slotOf(id)!] = raw;
      const config = { ...streamPreset.score, relevance: "embedding" as const, weights: [1, 0, 0] as [number, number, number] };
      const ranking = new SectionRanking(index, null, streamPreset.pooled, config, { values, matched: null, scaleToCandidates: true }, T0);
      const top = ranking.top(3);
      // The expired memory's 8 is no candidate's: b's 4 is the largest.
      expect([...top.slots].map((slot) => index.ids[slot])).toEqual(["b", "a", "c"]);
      expect(top.rel).toEqual([1, 0.5, 0.25]);
      store.close();
    });

    it("stops ranking given memories once each is known to place past `within`", () => {
      const { ranking, close } = unmatchedRanking(Array.from({ length: 30 }, (_, h) => [h, 5]), [1, 1, 1]);
      // m20 is 21st: 20 memories come before it, and the walk ends at the second of them.
      expect(ranking.rankOf([20], 2)).toEqual([]);
      expect(ranking.visited).toBe(2);
      expect(ranking.rankOf([20]).map((r) => r.rank)).toEqual([21]);
      close();
    });

    it("gives nothing for a depth or a neighbourhood of 0", () => {
      const { ranking, close } = unmatchedRanking(Array.from({ length: 5 }, (_, h) => [h, 5]), [1, 1, 1]);
      expect(ranking.top(0).slots).toEqual([]);
      expect(ranking.visited).toBe(0);
      // m2 is third: the walk visits the two before it and itself.
      const [located] = ranking.rankOf([2]);
      expect(ranking.visited).toBe(3);
      expect(ranking.around(located, 0)).toEqual([]);
      expect(ranking.visited).toBe(3);
      close();
    });
  });
});

describe("section ranking, case by case", () => {
  const EPISODIC = KINDS.indexOf("episodic");
  /** Rule of a section ranked by score, with no quota and no relevance rule. */
  const byScore = { order: "score" as const, fit: "stop" as const, limit: 10, quota: null, requireRelevance: false };
  const rates = (weights: [number, number, number], normalise: "none" | "minmax" = "none") => ({
    ...streamPreset.score,
    relevance: "words" as const,
    weights,
    decayRate: 0.5,
    normalise,
  });
  const fact = (id: string, kind: Kind, text: string, hoursAgo: number, importance = 5): NewMemory => ({
    id,
    scope: "u",
    kind,
    text,
    createdAt: T0 - hoursAgo * HOUR,
    importance,
  });
  /** A store of `memories`, with relevance `raw` by id (0 for the rest) and those above 0 as the postings. */
  function storeWith(memories: NewMemory[], raw: Record<string, number> = {}) {
    const store = openStore(":memory:", { tokenizer: fourCharacters });
    store.rememberMany(memories);
    const index = scopeIndex(store, "u")!;
    const values = new Float64Array(index.size);
    for (const [id, value] of Object.entries(raw)) values[index.slotOf(id)!] = value;
    const matched = Int32Array.from(Object.keys(raw).map((id) => index.slotOf(id)!));
    const ids = (c: { slots: number[] }) => c.slots.map((slot) => index.ids[slot]);
    return { store, index, relevance: { values, matched, scaleToCandidates: false }, ids };
  }

  it("reads given postings in their own order when told they are not ordered by relevance", () => {
    const store = openStore(":memory:", { tokenizer: fourCharacters });
    const texts: [string, number][] = [["apple pear", 9], ["apple", 8], ["apple pear", 7], ["apple", 6], ["apple pear", 1]];
    store.rememberMany(texts.map(([text, hours], i) => ({ id: `m${i}`, scope: "u", kind: "semantic", text, createdAt: T0 - hours * HOUR })));
    const index = scopeIndex(store, "u")!;
    const relevance = wordsRelevance({ index, query: { text: "apple pear" }, now: T0, stopwords: false });
    const ranking = new SectionRanking(index, null, byScore, rates([1, 0, 0]), relevance, T0, { matched: relevance.matched, matchedByRelevance: false });
    // m3 falls below the cutoff m2 raises, and m4 after it still ties for first.
    expect([...ranking.top(2).slots].map((slot) => index.ids[slot])).toEqual(["m4", "m2"]);
    store.close();
  });

  it("in the walk bounded by the largest relevance, visits a memory whose own bound only ties the bar: it may win the tie", () => {
    // Recency weighs nothing, so a and b, of relevance 0.5 and the same importance, have one total,
    // which is also each one's bound. The walk meets a first (used last), then b at the bar; b's
    // later event wins the tie.
    const { store, index, ids } = storeWith([
      { ...fact("a", "semantic", "a", 10), lastAccessedAt: T0 - 1 * HOUR },
      { ...fact("b", "semantic", "b", 2), lastAccessedAt: T0 - 5 * HOUR },
    ]);
    const values = Float64Array.of(0.5, 0.5);
    const ranking = new SectionRanking(index, null, byScore, rates([1, 0, 1]), { values, matched: null, scaleToCandidates: false, largest: 0.5 }, T0);
    expect(ids(ranking.top(1))).toEqual(["b"]);
    expect(ranking.visited).toBe(2);
    store.close();
  });

  it("in the walk bounded by the largest relevance, passes over a memory that its own relevance and last use leave below the bar", () => {
    // Recency at decay 0.5 an hour; importance weighs nothing. c (used now, relevance 0) sets the bar at 1. e (used an
    // hour ago, 0.45) is bounded by 0.45 + 0.5 < 1, though the bound without a power, 0.45 + 1 / (1 + ln 2), is not
    // below it. d (used 3 hours ago, 1) then places with 1.125, and no later memory can reach it.
    const { store, index, ids } = storeWith([
      { ...fact("c", "semantic", "c", 9), lastAccessedAt: T0 },
      { ...fact("e", "semantic", "e", 9), lastAccessedAt: T0 - 1 * HOUR },
      { ...fact("d", "semantic", "d", 9), lastAccessedAt: T0 - 3 * HOUR },
      { ...fact("f", "semantic", "f", 9), lastAccessedAt: T0 - 4 * HOUR },
    ]);
    const values = Float64Array.of(0, 0.45, 1, 1);
    const ranking = new SectionRanking(index, null, byScore, rates([1, 1, 0]), { values, matched: null, scaleToCandidates: false, largest: 1 }, T0);
    expect(ids(ranking.top(1))).toEqual(["d"]);
    expect(ranking.visited).toBe(2);
    store.close();
  });

  it("takes every candidate for a depth beyond their number, however large", () => {
    const { store, relevance, ids, index } = storeWith([fact("a", "semantic", "a", 1), fact("b", "semantic", "b", 2), fact("c", "semantic", "c", 3)]);
    const ranking = new SectionRanking(index, null, byScore, rates([1, 1, 1]), relevance, T0);
    expect(ids(ranking.top(2 ** 40))).toEqual(["a", "b", "c"]);
    expect(ids(ranking.top(Number.POSITIVE_INFINITY))).toEqual(["a", "b", "c"]);
    store.close();
  });

  it("ends the whole walk, unmatched memories included, once every given memory is known to place past `within`", () => {
    const apples = Array.from({ length: 10 }, (_, h) => fact(`m${h}`, "semantic", "apple", h));
    const pears = Array.from({ length: 10 }, (_, h) => fact(`u${h}`, "semantic", "pear", h));
    const { store, index, relevance } = storeWith([...apples, ...pears], Object.fromEntries(apples.map((m) => [m.id, 1])));
    const ranking = new SectionRanking(index, null, byScore, rates([1, 1, 1]), relevance, T0);
    // m9 is tenth: m0 and m1, the first two matched memories walked, already place it past 2.
    expect(ranking.rankOf([index.slotOf("m9")!], 2)).toEqual([]);
    expect(ranking.visited).toBe(2);
    store.close();
  });

  it("never lets in a memory of another kind that a bound rules out, under min-max scaling", () => {
    // Scaled over the episodic candidates, the fact's relevance lies far below their range, and its
    // recency (used just now) far above it.
    const { store, index, relevance, ids } = storeWith(
      [fact("e1", "episodic", "e1", 10, 5), fact("e2", "episodic", "e2", 11, 4), { ...fact("s", "semantic", "s", 0, 10), lastAccessedAt: T0 }],
      { e1: 0.8, e2: 0.6, s: 0.1 },
    );
    const ranking = new SectionRanking(index, EPISODIC, byScore, rates([1, 1, 1], "minmax"), relevance, T0);
    expect(ids(ranking.top(1))).toEqual(["e1"]);
    expect(ids(ranking.top(5))).toEqual(["e1", "e2"]);
    store.close();
  });

  it("in `newest` order, passes over every memory written before the k-th newest once it has k", () => {
    const { store, index, relevance, ids } = storeWith(Array.from({ length: 30 }, (_, h) => fact(`m${h}`, "semantic", "fact", h)));
    const ranking = new SectionRanking(index, null, { ...byScore, order: "newest" }, rates([1, 1, 1]), relevance, T0);
    expect(ids(ranking.top(3))).toEqual(["m0", "m1", "m2"]);
    expect(ranking.visited).toBe(3);
    store.close();
  });

  it("walks a run of unmatched memories oldest first to its end, and each memory once", () => {
    const { store, index, relevance, ids } = storeWith([fact("m0", "semantic", "fact", 0), fact("m1", "semantic", "fact", 1), fact("m2", "semantic", "fact", 2)]);
    const ranking = new SectionRanking(index, null, byScore, rates([1, -1, 1]), relevance, T0);
    expect(ids(ranking.top(5))).toEqual(["m2", "m1", "m0"]);
    store.close();
  });

  it("bounds a per-kind section by its own kind's memories: a newer memory of another kind does not make it score old ones", () => {
    const episodes = Array.from({ length: 10 }, (_, h) => fact(`e${h}`, "episodic", "talk", 10 + h));
    const { store, index, relevance, ids } = storeWith([...episodes, { ...fact("s", "semantic", "fact", 0), lastAccessedAt: T0 }], {
      ...Object.fromEntries(episodes.map((m) => [m.id, 0.9])),
      e0: 1,
    });
    const ranking = new SectionRanking(index, EPISODIC, byScore, rates([1, 1, 1]), relevance, T0);
    expect(ids(ranking.top(1))).toEqual(["e0"]);
    // The bar is e0's 1 + 0.5^10 + 0.5; the episodes' best recency, e0's, leaves 0.9 short of it.
    expect(ranking.visited).toBe(1);
    store.close();
  });
});

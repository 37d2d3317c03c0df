import { describe, expect, it } from "vitest";
import { AskRelevance } from "../../../src/memory/ask-relevance.js";
import { retrieve, retrieveUnder } from "../../../src/memory/retrieve.js";
import { pooledPreset } from "../../../src/memory/presets.js";
import { bm25Relevance } from "../../../src/memory/relevance/bm25.js";
import { embeddingRelevance } from "../../../src/memory/relevance/embedding.js";
import { HYBRID_DEFAULTS, hybridRelevance } from "../../../src/memory/relevance/hybrid.js";
import { defaultStopwords, needsEmbedding, RELEVANCE_BACKENDS } from "../../../src/memory/relevance/index.js";
import { type MemoryStore, scopeIndex } from "../../../src/memory/store/store.js";
import type { HybridConfig, NewMemory, Query, RetrievalPolicy, ScoreConfig } from "../../../src/memory/types.js";
import { memoryStore, T0, tempPath } from "../helpers.js";

const base = { scope: "u", kind: "semantic" as const, createdAt: T0 };
const vec = (...vector: number[]) => ({ model: "m", vector });

/**
 * A real store (an SQLite file) of memories about tea and Lisbon; slots in insertion order. The
 * query is "tea Lisbon" with vector [1, 0, 0].
 */
function teaStore(): MemoryStore {
  const store = memoryStore(tempPath());
  store.remember({ ...base, id: "green", text: "green tea in Lisbon", embedding: vec(1, 0, 0) }); // slot 0: cosine 1, both words
  store.remember({ ...base, id: "tea", text: "tea", embedding: vec(0.6, 0.8, 0) }); // slot 1: cosine 0.6, tea
  store.remember({ ...base, id: "coffee", text: "black coffee", embedding: vec(0.8, 0.6, 0) }); // slot 2: cosine 0.8, no shared word
  store.remember({ ...base, id: "walk", text: "a walk in Lisbon", embedding: vec(0, 0, 1) }); // slot 3: cosine 0, Lisbon
  store.remember({ ...base, id: "expired", text: "tea Lisbon tea", expiresAt: T0, embedding: vec(1, 0, 0) }); // slot 4: not current
  store.remember({ ...base, id: "old", text: "tea in Lisbon", embedding: vec(1, 0, 0) }); // slot 5: corrected below
  store.correct("old", { ...base, id: "new", text: "moved to Porto", embedding: vec(0, 1, 0) }); // slot 6: cosine 0
  store.remember({ ...base, id: "milk", text: "tea with milk" }); // slot 7: no vector, tea
  return store;
}
const QUERY: Query = { text: "tea Lisbon", embedding: { model: "m", vector: [1, 0, 0] } };
const CURRENT = [0, 1, 2, 3, 6, 7];

/** The hybrid values of `index`'s slots, copied out (the scores go back to the index's pool). */
function hybridValues(store: MemoryStore, hybrid: Partial<HybridConfig>, query: Query = QUERY, stopwords = true): number[] {
  const index = scopeIndex(store, "u")!;
  const scores = hybridRelevance({ index, query, now: T0, stopwords, hybrid });
  expect(scores.matched).toBeNull();
  expect(scores.scaleToCandidates).toBe(false);
  const values = Array.from(scores.values.slice(0, index.size));
  index.releaseScores(scores.values, scores.matched);
  return values;
}
function signal(store: MemoryStore, backend: typeof bm25Relevance, query: Query = QUERY): number[] {
  const index = scopeIndex(store, "u")!;
  const scores = backend({ index, query, now: T0, stopwords: true });
  const values = Array.from(scores.values.slice(0, index.size));
  index.releaseScores(scores.values, scores.matched);
  return values;
}
/** Slots by value, highest first, ties to the earlier slot. */
const byValue = (slots: readonly number[], values: readonly number[]) => [...slots].sort((a, b) => values[b]! - values[a]! || a - b);

describe("hybrid relevance", () => {
  it("is a backend that needs an embedding and drops stopwords by default, fusing by RRF at weight 0.5, k 60 unless told", () => {
    expect(RELEVANCE_BACKENDS.hybrid).toBe(hybridRelevance);
    expect(needsEmbedding("hybrid")).toBe(true);
    expect(needsEmbedding("embedding")).toBe(true);
    expect(needsEmbedding("bm25")).toBe(false);
    expect(needsEmbedding("words")).toBe(false);
    expect(defaultStopwords("hybrid")).toBe(true);
    expect(defaultStopwords("embedding")).toBe(false);
    expect(HYBRID_DEFAULTS).toEqual({ fusion: "rrf", weight: 0.5, k: 60 });
    const store = teaStore();
    expect(hybridValues(store, {})).toEqual(hybridValues(store, { fusion: "rrf", weight: 0.5, k: 60 }));
  });

  describe("rrf", () => {
    it("adds weight / (k + dense rank) and (1 − weight) / (k + BM25 rank), divided by 1 / (k + 1)", () => {
      // x shares the query's word; y's vector is the query's.
      const store = memoryStore();
      store.remember({ ...base, id: "x", text: "tea", embedding: vec(1, 0) });
      store.remember({ ...base, id: "y", text: "coffee", embedding: vec(0, 1) });
      const query: Query = { text: "tea", embedding: { model: "m", vector: [0, 1] } };
      const [x, y] = hybridValues(store, { weight: 0.25, k: 60 }, query);
      // x: dense rank 2, BM25 rank 1. y: dense rank 1, no BM25 rank (no word in common).
      expect(x).toBeCloseTo((0.25 / 62 + 0.75 / 61) * 61, 12);
      expect(y).toBeCloseTo((0.25 / 61) * 61, 12);
      const [x1, y1] = hybridValues(store, { weight: 0.5, k: 1 }, query);
      expect(x1).toBeCloseTo((0.5 / 3 + 0.5 / 2) * 2, 12);
      expect(y1).toBeCloseTo(0.5, 12);
    });

    it("follows the formula over the ranks of the current memories, ties to the earlier slot", () => {
      const store = teaStore();
      const dense = signal(store, embeddingRelevance);
      const lexical = signal(store, bm25Relevance);
      // milk (slot 7) has no vector, so no dense rank, as a memory sharing no word has no BM25 rank.
      const denseRank = new Map(byValue(CURRENT.filter((s) => s !== 7), dense).map((slot, i) => [slot, i + 1]));
      const lexicalRank = new Map(byValue(CURRENT.filter((s) => lexical[s]! > 0), lexical).map((slot, i) => [slot, i + 1]));
      // By hand: cosines 1, 0.6, 0.8, 0, 0 give dense ranks 1, 3, 2, 4, 5; tea and Lisbon are matched by green, tea, walk and milk.
      expect([...denseRank]).toEqual([[0, 1], [2, 2], [1, 3], [3, 4], [6, 5]]);
      expect([...lexicalRank.keys()].sort()).toEqual([0, 1, 3, 7]);
      for (const [weight, k] of [[0.5, 60], [0.3, 10], [0.9, 1]] as const) {
        const values = hybridValues(store, { fusion: "rrf", weight, k });
        for (const slot of CURRENT) {
          const [l, d] = [lexicalRank.get(slot), denseRank.get(slot)];
          const expected = ((d === undefined ? 0 : weight / (k + d)) + (l === undefined ? 0 : (1 - weight) / (k + l))) * (k + 1);
          expect(values[slot], `slot ${slot} at weight ${weight}, k ${k}`).toBeCloseTo(expected, 12);
        }
        // The memory first in both rankings gets the most there is.
        expect(values[0]).toBeCloseTo(1, 12);
      }
    });
  });

  describe("convex", () => {
    it("adds weight · min-max cosine and (1 − weight) · min-max BM25, over the current memories", () => {
      const store = teaStore();
      const dense = signal(store, embeddingRelevance);
      const lexical = signal(store, bm25Relevance);
      const scaled = (values: number[]) => {
        const current = CURRENT.map((s) => values[s]!);
        const [low, high] = [Math.min(...current), Math.max(...current)];
        return values.map((v) => (v - low) / (high - low));
      };
      const [d, l] = [scaled(dense), scaled(lexical)];
      for (const weight of [0, 0.3, 0.5, 1]) {
        const values = hybridValues(store, { fusion: "convex", weight });
        for (const slot of CURRENT) expect(values[slot], `slot ${slot} at weight ${weight}`).toBeCloseTo(weight * d[slot]! + (1 - weight) * l[slot]!, 12);
      }
    });

    it("gives the best there is to a positive signal every current memory shares (one memory, say), rather than dividing by 0", () => {
      const store = memoryStore();
      store.remember({ ...base, id: "only", text: "tea", embedding: vec(1, 0) });
      expect(hybridValues(store, { fusion: "convex" }, { text: "tea", embedding: { model: "m", vector: [1, 0] } })).toEqual([1]);
      // Nothing shared and an orthogonal vector: both signals are 0, and so is the fusion.
      expect(hybridValues(store, { fusion: "convex" }, { text: "coffee", embedding: { model: "m", vector: [0, 1] } })).toEqual([0]);
    });
  });

  it.each(["rrf", "convex"] as const)("%s: at weight 1 ranks as the embedding alone, at weight 0 as BM25 alone", (fusion) => {
    const store = teaStore();
    const dense = signal(store, embeddingRelevance);
    const lexical = signal(store, bm25Relevance);
    expect(byValue(CURRENT, hybridValues(store, { fusion, weight: 1 }))).toEqual(byValue(CURRENT, dense));
    expect(byValue(CURRENT, hybridValues(store, { fusion, weight: 0 }))).toEqual(byValue(CURRENT, lexical));
    // And the two rankings differ here, so each equality says something.
    expect(byValue(CURRENT, dense)).not.toEqual(byValue(CURRENT, lexical));
  });

  it.each(["rrf", "convex"] as const)("%s: a memory with no word in common gets dense relevance, expired and corrected memories none", (fusion) => {
    const store = teaStore();
    const values = hybridValues(store, { fusion, weight: 0.5 });
    expect(signal(store, bm25Relevance)[2]).toBe(0);
    expect(values[2]).toBeGreaterThan(0);
    expect([values[4], values[5]]).toEqual([0, 0]);
  });

  it("lies in [0, 1] over random stores, settings and queries, and is 0 for memories that are not current", () => {
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const words = ["tea", "coffee", "lisbon", "porto", "walk", "the", "milk"];
    const text = () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => words[Math.floor(random() * words.length)]).join(" ");
    const vector = () => [random() * 2 - 1, random() * 2 - 1, random() * 2 - 1];
    for (let trial = 0; trial < 20; trial++) {
      const store = memoryStore();
      const memories: NewMemory[] = Array.from({ length: 3 + Math.floor(random() * 10) }, (_, i) => ({
        ...base,
        id: `m${i}`,
        text: text(),
        ...(random() < 0.2 ? { expiresAt: T0 } : {}),
        ...(random() < 0.8 ? { embedding: { model: "m", vector: vector() } } : {}),
      }));
      store.rememberMany(memories);
      const query: Query = { text: text(), embedding: { model: "m", vector: vector() } };
      const index = scopeIndex(store, "u")!;
      for (const hybrid of [{ fusion: "rrf", weight: random(), k: 1 + Math.floor(random() * 80) }, { fusion: "convex", weight: random() }] as const) {
        const values = hybridValues(store, hybrid, query);
        values.forEach((v, slot) => {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1 + 1e-12);
          if (!index.isCurrent(slot, T0)) expect(v).toBe(0);
        });
      }
    }
  });

  it("refuses a query without an embedding, alone and through retrieve", () => {
    const store = teaStore();
    expect(() => hybridRelevance({ index: scopeIndex(store, "u")!, query: { text: "tea" }, now: T0, stopwords: true })).toThrow(
      "the embedding relevance backend needs query.embedding (a vector and its model)",
    );
    expect(() => retrieve(store, { scope: "u", query: { text: "tea" }, now: T0, policy: hybridPolicy({}) })).toThrow(
      "the hybrid relevance backend needs query.embedding (a vector and its model)",
    );
  });

  it("drops stopwords from its BM25 half unless told not to", () => {
    const store = memoryStore();
    store.remember({ ...base, id: "the", text: "the coffee", embedding: vec(1, 0) });
    store.remember({ ...base, id: "tea", text: "tea", embedding: vec(0, 1) });
    const query: Query = { text: "the tea", embedding: { model: "m", vector: [1, 0] } };
    // At weight 0 only BM25 counts: "the" matches only when stopwords are kept.
    expect(hybridValues(store, { weight: 0 }, query, true)[0]).toBe(0);
    expect(hybridValues(store, { weight: 0 }, query, false)[0]).toBeGreaterThan(0);
    const ranked = retrieve(store, { scope: "u", query, now: T0, policy: hybridPolicy({ weight: 0 }) }).sections[0]!.ranked;
    // So a section that needs relevance leaves "the coffee" out.
    expect(ranked.map((r) => r.id)).toEqual(["tea"]);
  });

  it("reaches the block as it is: the rel of each ranked memory, every current memory a candidate", () => {
    const store = teaStore();
    const values = hybridValues(store, {});
    const ranked = retrieve(store, { scope: "u", query: QUERY, now: T0, policy: hybridPolicy({}) }).sections[0]!.ranked;
    const slotOf = { green: 0, tea: 1, coffee: 2, walk: 3, new: 6, milk: 7 } as Record<string, number>;
    expect(ranked.map((r) => r.id).sort()).toEqual(Object.keys(slotOf).sort());
    for (const r of ranked) expect(r.rel).toBeCloseTo(values[slotOf[r.id]!]!, 12);
    expect(ranked[0]!.id).toBe("green");
  });

  describe("under one AskRelevance", () => {
    const score = (hybrid?: Partial<HybridConfig>, stopwords?: boolean): ScoreConfig => ({
      ...pooledPreset.score,
      relevance: "hybrid",
      ...(hybrid === undefined ? {} : { hybrid }),
      ...(stopwords === undefined ? {} : { stopwords }),
    });

    it("keeps apart settings that differ in fusion, weight or k, and shares those that agree once defaults are filled", () => {
      const store = teaStore();
      const shared = new AskRelevance(scopeIndex(store, "u")!, QUERY, T0);
      const rrf = shared.for(score({ fusion: "rrf", weight: 0.5, k: 60 }));
      expect(shared.for(score())).toBe(rrf);
      expect(shared.for(score({}))).toBe(rrf);
      expect(shared.for(score({ k: 60 }))).toBe(rrf);
      const others = [score({ k: 1 }), score({ weight: 0.9 }), score({ fusion: "convex" }), score({}, false)].map((c) => shared.for(c));
      for (const other of others) expect(other).not.toBe(rrf);
      expect(new Set(others).size).toBe(others.length);
      const copies = [rrf, ...others].map((r) => Array.from(r.scores.values.slice(0, 8)));
      expect(copies[0]).toEqual(hybridValues(store, {}));
      expect(copies[1]).toEqual(hybridValues(store, { k: 1 }));
      expect(copies[2]).toEqual(hybridValues(store, { weight: 0.9 }));
      expect(copies[3]).toEqual(hybridValues(store, { fusion: "convex" }));
      expect(copies[4]).toEqual(hybridValues(store, {}, QUERY, false));
      shared.release();
    });

    it("gives each of two hybrid policies the block it gets alone", () => {
      const store = teaStore();
      const policies = [hybridPolicy({ weight: 0.9 }), hybridPolicy({ weight: 0.1 }), hybridPolicy({ fusion: "convex", weight: 0.9 }), hybridPolicy({ k: 1, weight: 0.1 })];
      const alone = policies.map((policy) => retrieve(store, { scope: "u", query: QUERY, now: T0, policy }));
      const together = retrieveUnder(store, { scope: "u", query: QUERY, now: T0 }, policies);
      expect(together).toEqual(alone);
      // The settings change the ranking here, so sharing the wrong scores would show.
      expect(alone[0]!.sections[0]!.ranked.map((r) => r.id)).not.toEqual(alone[1]!.sections[0]!.ranked.map((r) => r.id));
    });
  });
});

/** One pooled section ranked by hybrid relevance alone, every memory a candidate only if relevant. */
function hybridPolicy(hybrid: Partial<HybridConfig>): RetrievalPolicy {
  return {
    ...pooledPreset,
    touch: false,
    pooled: { ...pooledPreset.pooled, score: { weights: [1, 0, 0], relevance: "hybrid", hybrid }, requireRelevance: true },
  };
}

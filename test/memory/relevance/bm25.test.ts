import { describe, expect, it } from "vitest";
import { bm25Idf, bm25Relevance, bm25Term, BM25_B, BM25_K1 } from "../../../src/memory/relevance/bm25.js";
import { pooledPreset } from "../../../src/memory/presets.js";
import { retrieve } from "../../../src/memory/retrieve.js";
import type { RetrievalPolicy } from "../../../src/memory/types.js";
import { memoryStore, T0 } from "../helpers.js";
import { scopeIndex } from "../../../src/memory/store/store.js";

const bm25: RetrievalPolicy = {
  ...pooledPreset,
  pooled: { ...pooledPreset.pooled, score: { weights: [1, 0, 0], relevance: "bm25" }, requireRelevance: true },
};

describe("bm25", () => {
  it("uses k1 = 1.5 and b = 0.75 with a non-negative idf", () => {
    expect([BM25_K1, BM25_B]).toEqual([1.5, 0.75]);
    expect(bm25Idf(10, 10)).toBeGreaterThan(0);
    expect(bm25Idf(10, 1)).toBeCloseTo(Math.log(1 + 9.5 / 1.5), 12);
    // tf saturates and long documents are penalised.
    expect(bm25Term(1, 2, 5, 5)).toBeLessThan(2 * bm25Term(1, 1, 5, 5));
    expect(bm25Term(1, 1, 10, 5)).toBeLessThan(bm25Term(1, 1, 5, 5));
  });

  it("weighs a term as idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · length / average length))", () => {
    expect(bm25Term(2, 3, 10, 4)).toBeCloseTo((2 * 3 * 2.5) / (3 + 1.5 * (0.25 + 0.75 * 2.5)), 12);
    // An average length of 0 (no words at all) gives every memory relative length 0.
    expect(bm25Term(2, 3, 0, 0)).toBeCloseTo((2 * 3 * 2.5) / (3 + 1.5 * 0.25), 12);
  });

  it("scores and lists as matched only the memories current at the query time", () => {
    const store = memoryStore();
    const base = { scope: "u", kind: "semantic" as const, createdAt: T0 };
    store.remember({ ...base, id: "a", text: "tea" });
    store.remember({ ...base, id: "b", text: "tea", expiresAt: T0 });
    store.remember({ ...base, id: "c", text: "tea" });
    const { values, matched } = bm25Relevance({ index: scopeIndex(store, "u")!, query: { text: "tea" }, now: T0, stopwords: true });
    const score = bm25Term(bm25Idf(2, 2), 1, 1, 1);
    expect([...values.slice(0, 3)]).toEqual([score, 0, score]);
    expect([...matched!]).toEqual([0, 2]);
  });

  it("prefers rare words, scales to [0, 1] within the candidates and ignores stopwords", () => {
    const store = memoryStore();
    const base = { scope: "u", kind: "semantic" as const, createdAt: T0 };
    store.remember({ ...base, id: "rare", text: "the flight to Zanzibar" });
    store.remember({ ...base, id: "common1", text: "the flight was late" });
    store.remember({ ...base, id: "common2", text: "the flight was early" });
    store.remember({ ...base, id: "common3", text: "the flight was fine" });
    const ranked = retrieve(store, { scope: "u", query: { text: "the Zanzibar flight" }, now: T0, policy: bm25 }).sections[0].ranked;
    expect(ranked[0]).toMatchObject({ id: "rare", rel: 1 });
    expect(ranked.slice(1).map((r) => r.rel)).toEqual([ranked[1].rel, ranked[1].rel, ranked[1].rel]);
    expect(ranked[1].rel).toBeGreaterThan(0);
    expect(ranked[1].rel).toBeLessThan(0.5);
    // "the" alone is a stopword: no candidate matches.
    const none = retrieve(store, { scope: "u", query: { text: "the" }, now: T0, policy: bm25 }).sections[0];
    expect(none.ranked).toEqual([]);
  });

  it("counts only current memories in its corpus statistics", () => {
    const store = memoryStore();
    const base = { scope: "u", kind: "semantic" as const, createdAt: T0 };
    store.remember({ ...base, id: "a", text: "tea" });
    store.remember({ ...base, id: "b", text: "tea", expiresAt: T0 + 1 });
    store.remember({ ...base, id: "c", text: "coffee" });
    const policy: RetrievalPolicy = {
      ...bm25,
      pooled: { ...bm25.pooled, score: { ...bm25.pooled.score, weights: [1, 0, 0], normalise: "none" } },
    };
    const before = retrieve(store, { scope: "u", query: { text: "tea coffee" }, now: T0, policy }).sections[0];
    const after = retrieve(store, { scope: "u", query: { text: "tea coffee" }, now: T0 + 1, policy }).sections[0];
    expect(before.ranked.map((r) => r.id)).toEqual(["c", "a", "b"]);
    // With b expired, tea and coffee are equally rare, so both score 1; the tie goes to the id.
    expect(after.ranked.map((r) => [r.id, r.rel])).toEqual([["a", 1], ["c", 1]]);
  });

  it("leaves a memory that expires exactly at the query time out of the corpus statistics", () => {
    const store = memoryStore();
    const base = { scope: "u", kind: "semantic" as const, createdAt: T0 };
    store.remember({ ...base, id: "a", text: "tea tea" });
    store.remember({ ...base, id: "c", text: "tea milk honey" });
    store.remember({ ...base, id: "b", text: "tea tea tea tea tea tea tea tea", expiresAt: T0 + 1 });
    const index = scopeIndex(store, "u")!;
    expect(index.corpusStats(T0, false)).toEqual({ count: 3, words: 13 });
    expect(index.corpusStats(T0 + 1, false)).toEqual({ count: 2, words: 5 });
    expect(index.corpusStats(T0 + 1, true)).toEqual({ count: 2, words: 5 });
    // The scores use those statistics: c's share of a's score follows the average length 5 / 2.
    const ranked = retrieve(store, { scope: "u", query: { text: "tea" }, now: T0 + 1, policy: bm25 }).sections[0].ranked;
    expect(ranked.map((r) => r.id)).toEqual(["a", "c"]);
    expect(ranked[1].rel).toBeCloseTo(bm25Term(1, 1, 3, 2.5) / bm25Term(1, 2, 2, 2.5), 12);
  });
});

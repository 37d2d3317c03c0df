import { describe, expect, it } from "vitest";
import { streamPreset } from "../../../src/memory/presets.js";
import { embeddingRelevance } from "../../../src/memory/relevance/embedding.js";
import { retrieve } from "../../../src/memory/retrieve.js";
import { memoryStore, T0 } from "../helpers.js";
import { scopeIndex } from "../../../src/memory/store/store.js";

const base = { scope: "u", kind: "semantic" as const, createdAt: T0 };
const rels = (store: ReturnType<typeof memoryStore>, model: string, vector: number[]) =>
  retrieve(store, { scope: "u", query: { text: "", embedding: { model, vector } }, now: T0, policy: streamPreset }).sections[0].ranked.map((r) => [r.id, r.rel]);

describe("embedding", () => {
  it("is the cosine between query and memory vectors; no vector gives 0", () => {
    const store = memoryStore();
    store.remember({ ...base, id: "a", text: "a", embedding: { model: "m", vector: [1, 1, 0] } });
    store.remember({ ...base, id: "b", text: "b" });
    const ranked = retrieve(store, { scope: "u", query: { text: "", embedding: { model: "m", vector: [1, 0, 0] } }, now: T0, policy: streamPreset }).sections[0].ranked;
    expect(ranked.find((r) => r.id === "a")?.rel).toBeCloseTo(Math.SQRT1_2, 6);
    expect(ranked.find((r) => r.id === "b")?.rel).toBe(0);
  });

  it("refuses a query embedded with another model than the stored memories", () => {
    const store = memoryStore();
    store.remember({ ...base, id: "a", text: "a", embedding: { model: "nomic-embed-text", vector: [1, 0] } });
    expect(() =>
      retrieve(store, { scope: "u", query: { text: "", embedding: { model: "mxbai-embed-large", vector: [1, 0] } }, now: T0, policy: streamPreset }),
    ).toThrow(/query embedded with "mxbai-embed-large" but memory a was embedded with "nomic-embed-text"/);
  });

  it("gives every memory 0 for a query vector of length 0, rather than dividing by it", () => {
    const store = memoryStore();
    store.remember({ ...base, id: "a", text: "a", embedding: { model: "m", vector: [1, 1, 0] } });
    store.remember({ ...base, id: "b", text: "b" });
    expect(rels(store, "m", [0, 0, 0])).toEqual([
      ["a", 0],
      ["b", 0],
    ]);
  });

  it("names the first current memory of another model, past memories without a vector", () => {
    const store = memoryStore();
    store.remember({ ...base, id: "none", text: "none" });
    store.remember({ ...base, id: "mine", text: "mine", embedding: { model: "m", vector: [1, 0] } });
    store.remember({ ...base, id: "theirs", text: "theirs", embedding: { model: "other", vector: [0, 1] } });
    expect(() => rels(store, "m", [1, 0])).toThrow(
      new Error(`query embedded with "m" but memory theirs was embedded with "other"; embed queries and memories with one model`),
    );
  });

  it("accepts a query whose model only expired or corrected memories do not share", () => {
    const store = memoryStore();
    store.remember({ ...base, id: "expired", text: "expired", expiresAt: T0, embedding: { model: "old", vector: [0, 1] } });
    store.remember({ ...base, id: "corrected", text: "corrected", embedding: { model: "old", vector: [0, 1] } });
    store.correct("corrected", { ...base, id: "none", text: "none" });
    store.remember({ ...base, id: "mine", text: "mine", embedding: { model: "m", vector: [1, 0] } });
    expect(rels(store, "m", [1, 0])).toEqual([
      ["mine", 1],
      ["none", 0],
    ]);
  });

  it("refuses a query vector of another size and a query without a vector", () => {
    const store = memoryStore();
    store.remember({ ...base, id: "a", text: "a", embedding: { model: "m", vector: [1, 0] } });
    expect(() =>
      retrieve(store, { scope: "u", query: { text: "", embedding: { model: "m", vector: [1, 0, 0] } }, now: T0, policy: streamPreset }),
    ).toThrow(/3 dimensions/);
    expect(() => retrieve(store, { scope: "u", query: { text: "a" }, now: T0, policy: streamPreset })).toThrow(/needs query.embedding/);
    // A caller that scores without retrieve (a shared ask's relevance) meets the same refusal.
    expect(() => embeddingRelevance({ index: scopeIndex(store, "u")!, query: { text: "a" }, now: T0, stopwords: false })).toThrow(
      new Error("the embedding relevance backend needs query.embedding (a vector and its model)"),
    );
  });
});

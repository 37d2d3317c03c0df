import { describe, expect, it } from "vitest";
import { ScopeIndex } from "../../../src/memory/store/index-columns.js";
import type { Memory } from "../../../src/memory/types.js";
import { HOUR, T0 } from "../helpers.js";

let next = 0;

/** A current-looking semantic memory of scope "ana", without embedding unless given. */
function memory(fields: Partial<Memory> = {}): Memory {
  return {
    id: `m${next++}`,
    scope: "ana",
    kind: "semantic",
    text: "Ana lives in Lisbon",
    createdAt: T0,
    occurredAt: null,
    lastAccessedAt: T0,
    importance: 5,
    tokens: 8,
    supersedes: null,
    expiresAt: null,
    source: null,
    embedding: null,
    embeddingModel: null,
    ...fields,
  };
}

describe("scope index", () => {
  it("keeps each slot's source, null where the memory has none", () => {
    const index = new ScopeIndex("ana");
    index.add(memory({ source: "turn-1" }), true);
    index.add(memory(), true);
    expect(index.sources).toEqual(["turn-1", null]);
  });

  it("has no embeddings, of dimension 0, until a memory brings one", () => {
    const index = new ScopeIndex("ana");
    index.add(memory(), true);
    expect(index.embeddings).toEqual(new Float32Array(0));
    expect(index.dim).toBe(0);
  });

  it("lists embedding models in order of first use, a vector without a recorded model under a name no model has", () => {
    const index = new ScopeIndex("ana");
    index.add(memory({ embedding: new Float32Array([1, 0]), embeddingModel: "embedder-a" }), true);
    index.add(memory({ embedding: new Float32Array([0, 1]) }), true);
    index.add(memory({ embedding: new Float32Array([1, 1]), embeddingModel: "embedder-a" }), true);
    expect(index.models).toEqual(["embedder-a", "(unrecorded model)"]);
    expect(Array.from(index.embeddingModel.subarray(0, 3))).toEqual([0, 1, 0]);
  });

  it("refuses an embedding whose dimension differs from the scope's, naming both", () => {
    const index = new ScopeIndex("ana");
    index.add(memory({ embedding: new Float32Array([1, 0]), embeddingModel: "embedder-a" }), true);
    expect(() => index.add(memory({ id: "odd", embedding: new Float32Array([1, 0, 0]), embeddingModel: "embedder-a" }), true)).toThrow(
      new Error('memory odd: embedding has 3 dimensions but scope "ana" stores 2-dimensional embeddings'),
    );
  });

  it("grows past 16 memories, with or without embeddings", () => {
    const plain = new ScopeIndex("ana");
    const embedded = new ScopeIndex("ana");
    for (let i = 0; i < 17; i++) {
      plain.add(memory({ lastAccessedAt: T0 + i }), true);
      embedded.add(memory({ embedding: new Float32Array([i, 1]), embeddingModel: "embedder-a" }), true);
    }
    expect([plain.size, plain.lastAccessedAt[16], plain.embeddings.length]).toEqual([17, T0 + 16, 0]);
    expect(Array.from(embedded.embeddings.subarray(32, 34))).toEqual([16, 1]);
  });

  it("bounds each kind's line costs from below by the least added, and every kind's by the least of all", () => {
    const index = new ScopeIndex("ana");
    expect(index.minTokens(1)).toBe(Number.POSITIVE_INFINITY);
    index.add(memory({ tokens: 7 }), true);
    index.add(memory({ tokens: 5 }), false);
    index.add(memory({ tokens: 9 }), true);
    index.add(memory({ kind: "episodic", tokens: 6 }), true);
    expect([index.minTokens(0), index.minTokens(1), index.minTokens(2), index.minTokens(null)]).toEqual([
      Number.POSITIVE_INFINITY,
      5,
      6,
      5,
    ]);
  });

  it("counts a memory added as superseded in neither the corpus nor the access order", () => {
    const index = new ScopeIndex("ana");
    index.add(memory({ text: "old words here", lastAccessedAt: T0 }), false);
    index.add(memory({ text: "new words", lastAccessedAt: T0 + HOUR }), true);
    expect(index.corpusStats(T0, false)).toEqual({ count: 1, words: 2 });
    const run = index.accessOrder.runsOf(1).find((r) => r.length > 0);
    expect(run && Array.from(run.slots.subarray(0, run.length))).toEqual([1]);
  });
});

import { describe, expect, it } from "vitest";
import { renderLine } from "../../../src/memory/escape.js";
import { ScopeIndex } from "../../../src/memory/store/index-columns.js";
import { MEMORY_ROW } from "../../../src/memory/store/schema.js";
import { KINDS, type Memory } from "../../../src/memory/types.js";
import { Prefaulter } from "../../../src/memory/vector/prefault.js";
import { SIMD_MIN_FLOATS, type VectorColumn } from "../../../src/memory/vector/vector-column.js";
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
  it("keeps the fields MEMORY_ROW marks for the index in typed columns, absent times as NaN and +Infinity, through growth", () => {
    const index = new ScopeIndex("ana");
    const given = memory({ kind: "episodic", occurredAt: T0 - HOUR, expiresAt: T0 + HOUR, importance: 9, tokens: 3, lastAccessedAt: T0 + 1 });
    index.add(given, true);
    index.addMany(Array.from({ length: 40 }, () => memory()), new Array(40).fill(true)); // past the first capacity
    const kept = MEMORY_ROW.filter((c) => "index" in c).map((c) => c.field);
    expect(kept).toEqual(["kind", "createdAt", "occurredAt", "lastAccessedAt", "importance", "tokens", "expiresAt"]);
    expect(kept.map((field) => index[field][0])).toEqual([KINDS.indexOf("episodic"), T0, T0 - HOUR, T0 + 1, 9, 3, T0 + HOUR]);
    expect([index.occurredAt[40], index.expiresAt[40], index.kind[40]]).toEqual([Number.NaN, Number.POSITIVE_INFINITY, KINDS.indexOf("semantic")]);
    expect(index.size).toBe(41);
  });

  it("renders a slot's line from the text its source of texts gives, reading it once", () => {
    const read: number[] = [];
    const index = new ScopeIndex("ana", undefined, (slot) => (read.push(slot), ["Ana likes tea", "a <b> line"][slot]));
    index.addMany([memory(), memory()], [true, true]);
    expect([index.line(1), index.line(1), index.line(0)]).toEqual(["a <b> line", "a <b> line", "Ana likes tea"].map(renderLine));
    expect(read).toEqual([1, 0]);
    expect(() => new ScopeIndex("ben").line(0)).toThrow('scope index "ben" was made without a source of texts, so it renders no lines');
  });

  it("keeps each slot's source, null where the memory has none, whichever comes first", () => {
    const index = new ScopeIndex("ana");
    index.addMany([memory(), memory(), memory({ source: "turn-3" }), memory(), memory({ source: "turn-5" })], [true, true, true, true, true]);
    index.add(memory(), true);
    expect([0, 1, 2, 3, 4, 5, 6].map((slot) => index.sourceOf(slot))).toEqual([null, null, "turn-3", null, "turn-5", null, null]);
    const none = new ScopeIndex("ben");
    none.addMany([memory(), memory()], [true, true]);
    expect([none.sourceOf(0), none.sourceOf(1)]).toEqual([null, null]);
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

  it("lends a scores buffer at least as long as the index, zeroed up to the size, whose room past it no one writes", () => {
    const index = new ScopeIndex("ana");
    for (let i = 0; i < 3; i++) index.add(memory(), true);
    const values = index.scoresBuffer();
    expect(values.length).toBeGreaterThanOrEqual(3);
    values.fill(5, 0, 3);
    values[10] = 9; // past the size: a relevance backend never writes there
    index.releaseScores(values, null);
    expect(index.scoresBuffer()).toBe(values);
    expect(Array.from(values.subarray(0, 3))).toEqual([0, 0, 0]);
    expect(values[10]).toBe(9);
    values[1] = 4;
    index.releaseScores(values, Int32Array.of(1));
    expect(values[1]).toBe(0);
  });

  it("lends a buffer as a former query left it to a caller that overwrites every slot, and a clean one to any other", () => {
    const index = new ScopeIndex("ana");
    for (let i = 0; i < 3; i++) index.add(memory(), true);
    const [dense, sparse] = [index.scoresBuffer(), index.scoresBuffer()];
    dense.fill(0.5, 0, 3);
    sparse[2] = 1;
    index.releaseScores(dense, null);
    index.releaseScores(sparse, Int32Array.of(2));
    // Each goes where it costs no zeroing, whichever order they are asked for in.
    expect(index.scoresBuffer()).toBe(sparse);
    expect(index.scoresBuffer(true)).toBe(dense);
    expect(Array.from(dense.subarray(0, 3))).toEqual([0.5, 0.5, 0.5]);
    index.releaseScores(dense, null);
    index.releaseScores(sparse, Int32Array.of(2));
    expect(index.scoresBuffer(true)).toBe(dense);
    expect(index.scoresBuffer()).toBe(sparse);
    expect(Array.from(sparse.subarray(0, 3))).toEqual([0, 0, 0]);
    // With only a used one to give, a caller that needs zeros gets it zeroed.
    index.releaseScores(dense, null);
    expect(index.scoresBuffer()).toBe(dense);
    expect(Array.from(dense.subarray(0, 3))).toEqual([0, 0, 0]);
  });

  it("drops a spare buffer the index has outgrown, and lends a new one as long as its room", () => {
    const index = new ScopeIndex("ana");
    index.add(memory(), true);
    const small = index.scoresBuffer();
    index.releaseScores(small, null);
    while (index.size <= small.length) index.add(memory(), true);
    const grown = index.scoresBuffer(true);
    expect(grown).not.toBe(small);
    expect(grown.length).toBeGreaterThan(index.size);
    expect(Array.from(grown.subarray(0, index.size)).every((v) => v === 0)).toBe(true);
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

  it("adds a batch as it adds the batch's memories one by one: the same columns, postings, corpus and access order", () => {
    const kinds = ["working", "semantic", "episodic", "procedural"] as const;
    const batch = Array.from({ length: 40 }, (_, i) =>
      memory({
        kind: kinds[i % 4],
        text: `${["tea", "Lisbon", "the tea"][i % 3]} word${i % 7} and more`,
        lastAccessedAt: T0 + ((i * 7) % 11) * HOUR,
        importance: 1 + (i % 10),
        tokens: 3 + (i % 5),
        expiresAt: i % 6 === 0 ? T0 + i * HOUR : null,
        source: i % 2 === 0 ? `turn-${i}` : null,
        embedding: i % 3 === 0 ? null : new Float32Array([i, 1, -i]),
        embeddingModel: i % 3 === 0 ? null : `embedder-${i % 2}`,
      }),
    );
    const current = batch.map((_, i) => i % 5 !== 0);
    const together = new ScopeIndex("ana");
    together.add(memory({ id: "first", text: "before the batch" }), true);
    together.addMany(batch, current);
    const oneByOne = new ScopeIndex("ana");
    oneByOne.add(memory({ id: "first", text: "before the batch" }), true);
    batch.forEach((m, i) => oneByOne.add(m, current[i]));
    expect(contents(together)).toEqual(contents(oneByOne));
    expect(together.size).toBe(41);
  });
});

describe("scope index and its prefaulter", () => {
  /** Records the ranges it is asked to touch, and touches none. */
  class RecordingPrefaulter extends Prefaulter {
    readonly ranges: [number, number][] = [];
    override touch(_memory: WebAssembly.Memory, from: number, to: number): void {
      this.ranges.push([from, to]);
    }
  }

  it("after each batch, asks for the embedding pages of as many slots again, within the capacity", () => {
    const prefaulter = new RecordingPrefaulter();
    const index = new ScopeIndex("ana", prefaulter);
    // 16 slots of this dimension fill SIMD_MIN_FLOATS, so the column starts in wasm memory.
    const dim = SIMD_MIN_FLOATS / 16;
    const batch = (n: number) => Array.from({ length: n }, () => memory({ embedding: new Float32Array(dim).fill(1), embeddingModel: "e" }));
    index.addMany(batch(3), [true, true, true]);
    index.addMany(batch(10), new Array(10).fill(true));
    expect(index.vectors?.usesSimd).toBe(true);
    const at = (slot: number) => (index.vectors as VectorColumn).chunksOf(1)[0].vectors.byteOffset + slot * dim * 4;
    expect(prefaulter.ranges).toEqual([
      [at(3), at(6)],
      [at(13), at(16)],
    ]);
  });

  it("asks for nothing while no memory has an embedding", () => {
    const prefaulter = new RecordingPrefaulter();
    new ScopeIndex("ana", prefaulter).addMany([memory(), memory()], [true, true]);
    expect(prefaulter.ranges).toEqual([]);
  });
});

/** Everything an index holds that retrieval reads, as plain values. */
function contents(index: ScopeIndex): unknown {
  const upTo = <T extends { subarray(a: number, b: number): ArrayLike<number> }>(column: T) => Array.from(column.subarray(0, index.size));
  const columns = [
    index.createdAt, index.occurredAt, index.lastAccessedAt, index.importance, index.expiresAt, index.kind,
    index.current, index.tokens, index.wordCount, index.contentWordCount, index.embeddingModel,
  ].map(upTo);
  const words = ["tea", "lisbon", "the", "and", "more", "before", ...Array.from({ length: 7 }, (_, i) => `word${i}`)];
  return {
    ids: index.ids,
    sources: Array.from({ length: index.size }, (_, slot) => index.sourceOf(slot)),
    norms: Array.from({ length: index.size }, (_, slot) => index.vectors?.norm(slot) ?? 0),
    columns,
    embeddings: Array.from(index.embeddings.subarray(0, index.size * index.dim)),
    models: index.models,
    kindSlots: index.kindSlots.map((k) => Array.from(k.slots.subarray(0, k.length))),
    postings: words.map((w) => {
      const p = index.postings.get(w);
      return p && { stop: p.stop, slots: Array.from(p.slots.subarray(0, p.length)) };
    }),
    corpus: [T0, T0 + 20 * HOUR, T0 + 50 * HOUR].flatMap((now) => [index.corpusStats(now, false), index.corpusStats(now, true)]),
    minTokens: [0, 1, 2, 3, null].map((k) => index.minTokens(k)),
    accessOrder: [0, 1, 2, 3].map((k) =>
      index.accessOrder.runsOf(k).map((r) => [Array.from(r.slots.subarray(0, r.length)), Array.from(r.keys.subarray(0, r.length))]),
    ),
  };
}

describe("scope index touches", () => {
  /** The live entries of the access order, every kind and level, as [slot, last access]. */
  function liveOrder(index: ScopeIndex): [number, number][] {
    return [0, 1, 2, 3].flatMap((kind) =>
      index.accessOrder.runsOf(kind).flatMap((run) =>
        Array.from(run.slots.subarray(0, run.length), (slot, i): [number, number] => [slot, run.keys[i]]).filter((_, i) =>
          index.accessOrder.isLive(run.slots[i], run.versions[i]),
        ),
      ),
    );
  }

  it("moves a current memory to its new last access, leaves one touched at the time it has in place, and keeps a superseded one out of the access order", () => {
    const index = new ScopeIndex("ana");
    index.add(memory({ lastAccessedAt: T0 }), true);
    index.add(memory({ lastAccessedAt: T0 }), true);
    index.add(memory({ lastAccessedAt: T0 }), false);
    expect(liveOrder(index)).toEqual([
      [0, T0],
      [1, T0],
    ]);
    // Touched at the time it has: not moved after the memory accessed at the same time.
    index.touch(0, T0);
    expect(liveOrder(index)).toEqual([
      [0, T0],
      [1, T0],
    ]);
    index.touch(0, T0 + HOUR);
    index.touch(2, T0 + 2 * HOUR);
    expect(liveOrder(index)).toEqual([
      [1, T0],
      [0, T0 + HOUR],
    ]);
    expect(index.lastAccessedAt[2]).toBe(T0 + 2 * HOUR);
  });
});

describe("scope index models after growth", () => {
  it("gives every memory without an embedding no model (-1), in the room a growth added too", () => {
    const index = new ScopeIndex("ana");
    index.add(memory({ embedding: new Float32Array([1, 0]), embeddingModel: "embedder-a" }), true);
    index.addMany(Array.from({ length: 40 }, () => memory()), new Array(40).fill(true)); // past the first capacity
    index.add(memory({ embedding: new Float32Array([0, 1]), embeddingModel: "embedder-a" }), true);
    expect(Array.from(index.embeddingModel.subarray(0, 42))).toEqual([0, ...new Array(40).fill(-1), 0]);
  });
});

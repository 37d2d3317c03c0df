import { describe, expect, it } from "vitest";
import { BENCH_T0, SyntheticData, vocabulary, ZipfSampler } from "../../src/bench/synthetic.js";
import type { NewMemory } from "../../src/memory/index.js";
import { createRng } from "../../src/harness/stats/rng.js";

describe("synthetic bench data", () => {
  /** Memories with vectors of their own, as a caller that keeps a batch past the next must make them. */
  const kept = (memories: NewMemory[]) =>
    memories.map((m) => ({ ...m, ...(m.embedding ? { embedding: { ...m.embedding, vector: Float32Array.from(m.embedding.vector) } } : {}) }));

  it("is the same for the same seed, in one batch or many", () => {
    const one = new SyntheticData({ seed: 7, dim: 8 }).nextMemories(300);
    const split = new SyntheticData({ seed: 7, dim: 8 });
    const many = [...kept(split.nextMemories(120)), ...split.nextMemories(180)];
    expect(many).toEqual(one);
    expect(new SyntheticData({ seed: 7, dim: 8 }).queries(20)).toEqual(new SyntheticData({ seed: 7, dim: 8 }).queries(20));
  });

  it("lends a batch its vectors until the next call, which writes its own into the same buffer", () => {
    const data = new SyntheticData({ seed: 7, dim: 8 });
    const first = data.nextMemories(10);
    const copy = kept(first);
    const second = data.nextMemories(10);
    expect((first[0].embedding?.vector as Float32Array).buffer).toBe((second[0].embedding?.vector as Float32Array).buffer);
    expect(first.map((m) => m.embedding?.vector)).toEqual(second.map((m) => m.embedding?.vector));
    expect(first.map((m) => m.embedding?.vector)).not.toEqual(copy.map((m) => m.embedding?.vector));
  });

  it("differs between seeds", () => {
    const a = new SyntheticData({ seed: 1, dim: 0 }).nextMemories(50).map((m) => m.text);
    const b = new SyntheticData({ seed: 2, dim: 0 }).nextMemories(50).map((m) => m.text);
    expect(a).not.toEqual(b);
  });

  it("writes valid memories: unique ids, times before the first query, corrections of earlier ids", () => {
    const memories = new SyntheticData({ seed: 3, dim: 4 }).nextMemories(5_000);
    const ids = memories.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    const position = new Map(ids.map((id, i) => [id, i]));
    const targets = memories.flatMap((m, i) => (m.supersedes ? [[m.supersedes, i] as const] : []));
    expect(targets.length).toBeGreaterThan(0);
    for (const [target, i] of targets) expect(position.get(target)!).toBeLessThan(i);
    expect(new Set(targets.map(([t]) => t)).size).toBe(targets.length);
    for (const m of memories) {
      expect(m.createdAt).toBeLessThanOrEqual(BENCH_T0);
      expect(m.lastAccessedAt!).toBeGreaterThanOrEqual(m.createdAt);
      expect(m.embedding?.vector.length).toBe(4);
    }
  });

  it("draws words with a long tail: the top word is common, most words are rare", () => {
    const rng = createRng(5);
    const sampler = new ZipfSampler(1_000, 1.05);
    const counts = new Array<number>(1_000).fill(0);
    for (let i = 0; i < 20_000; i++) counts[sampler.sample(rng)]++;
    expect(counts[0]).toBeGreaterThan(counts[10] * 5);
    expect(counts[0]).toBeGreaterThan(counts[999] * 50);
  });

  it("builds a vocabulary of distinct words, stopwords first", () => {
    const words = vocabulary(500, createRng(1));
    expect(new Set(words).size).toBe(500);
    expect(words[0]).toBe("the");
  });
});

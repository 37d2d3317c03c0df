/**
 * Bounded ranking (a prefix from pruned passes) must equal the full ranking's prefix exactly, on
 * stores large enough that pruning, deepening and selection all run: ties on score, negative
 * weights, kinds that do not decay, `newest` order, quotas that make `skip` walk deep.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fullPolicy, streamPreset } from "../../src/memory/presets.js";
import { canRankBounded } from "../../src/memory/rank-bounded.js";
import { retrieve } from "../../src/memory/retrieve.js";
import { KINDS, type NewMemory, type RelevanceBackendName, type RetrievalPolicy } from "../../src/memory/types.js";
import { HOUR, memoryStore, T0 } from "./helpers.js";

// A seeded store of 2,500 memories over a small vocabulary (many shared words, many score ties),
// with whole-hour times and integer importance (more ties), some expiry and some corrections.
let state = 4;
const next = (n: number) => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state % n;
};
const WORDS = Array.from({ length: 60 }, (_, i) => `w${i}`);
const sentence = (length: number) => Array.from({ length }, () => WORDS[Math.min(next(60), next(60))]).join(" ");
const vector = () => Array.from({ length: 5 }, () => next(7) - 3);
const memories: NewMemory[] = Array.from({ length: 2_500 }, (_, i) => ({
  id: `m${i}`,
  scope: "u",
  kind: KINDS[next(4)],
  text: sentence(1 + next(8)),
  createdAt: T0 - next(2_000) * HOUR,
  occurredAt: next(2) === 0 ? T0 - next(2_000) * HOUR : null,
  lastAccessedAt: T0 - next(500) * HOUR,
  importance: 1 + next(10),
  expiresAt: next(50) === 0 ? T0 + (next(20) - 10) * HOUR : null,
  supersedes: i > 0 && next(100) === 0 ? `m${i - 1}` : null,
  embedding: next(10) === 0 ? null : { model: "test-embedder", vector: vector() },
}));
const store = memoryStore();
store.rememberMany(memories.filter((m, i) => !(m.supersedes && memories[i - 1]?.supersedes)));
const queries = Array.from({ length: 40 }, (_, i) => ({ text: sentence(1 + next(4)), vector: vector(), now: T0 + i * HOUR }));

const variant = fc.record({
  base: fc.constantFrom(fullPolicy, streamPreset, { ...streamPreset, mode: "per-kind" as const }),
  relevance: fc.constantFrom<RelevanceBackendName>("words", "bm25", "embedding"),
  weights: fc.tuple(fc.constantFrom(1, 0, 2, -1), fc.constantFrom(1, 0, 0.5, -1), fc.constantFrom(1, 0, 3, -0.5)),
  decay: fc.constantFrom(0.995, 1, 0.9),
  quota: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
  limit: fc.integer({ min: 0, max: 12 }),
  fit: fc.constantFrom("stop" as const, "skip" as const),
  order: fc.constantFrom("score" as const, "newest" as const),
  requireRelevance: fc.boolean(),
  depth: fc.integer({ min: 0, max: 40 }),
  query: fc.integer({ min: 0, max: queries.length - 1 }),
});

describe("bounded ranking", () => {
  it("gives the full ranking's sections whenever only a prefix is asked for", () => {
    fc.assert(
      fc.property(variant, (v) => {
        const rule = { order: v.order, fit: v.fit, limit: v.limit, quota: v.quota, requireRelevance: v.requireRelevance };
        const policy: RetrievalPolicy = {
          ...v.base,
          score: { ...v.base.score, relevance: v.relevance, weights: v.weights, decayRate: v.decay },
          sections: { ...v.base.sections, episodic: { ...v.base.sections.episodic, ...rule } },
          pooled: { ...v.base.pooled, ...rule },
          touch: false,
        };
        const q = queries[v.query];
        const request = {
          scope: "u",
          query: { text: q.text, embedding: { model: "test-embedder", vector: q.vector } },
          now: q.now,
          policy,
        };
        const full = retrieve(store, request);
        const bounded = retrieve(store, { ...request, rankDepth: v.depth });
        bounded.sections.forEach((section, i) => {
          const expected = full.sections[i];
          expect(section.kept).toEqual(expected.kept);
          expect(section.tokensUsed).toBe(expected.tokensUsed);
          expect(section.ranked).toEqual(expected.ranked.slice(0, section.ranked.length));
          expect(section.ranked.length).toBeGreaterThanOrEqual(Math.min(v.depth, expected.ranked.length));
        });
        expect(bounded.text).toBe(full.text);
      }),
      { numRuns: 120, seed: 20240602 },
    );
  });

  it("is not used where a signal is scaled over every candidate", () => {
    expect(canRankBounded({ ...fullPolicy.score, normalise: "minmax" })).toBe(false);
    expect(canRankBounded(fullPolicy.score)).toBe(true);
  });

  it("is not used when a decay rate above 1 would make old memories score higher", () => {
    expect(canRankBounded({ ...fullPolicy.score, decayRate: 2 })).toBe(false);
    expect(canRankBounded({ ...fullPolicy.score, kindDecay: { episodic: 1.5 } })).toBe(false);
  });

  it("gives the full ranking's prefix even with a decay rate above 1", () => {
    const policy: RetrievalPolicy = { ...streamPreset, touch: false, score: { ...streamPreset.score, relevance: "words", decayRate: 2 } };
    const request = { scope: "u", query: { text: queries[0].text }, now: queries[0].now, policy };
    const full = retrieve(store, request).sections[0].kept;
    const bounded = retrieve(store, { ...request, rankDepth: 5 }).sections[0].kept;
    expect(bounded).toEqual(full);
  });
});

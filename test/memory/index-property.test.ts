/**
 * The in-memory index must change nothing but speed: over random stores (with corrections,
 * expiry and touches along the way), indexed retrieval equals a plain full scan of SQLite.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fullPolicy, perKindPreset, pooledPreset, streamPreset } from "../../src/memory/presets.js";
import {
  KINDS,
  type NewMemory,
  type RelevanceBackendName,
  type RetrievalPolicy,
} from "../../src/memory/types.js";
import { HOUR, memoryStore, T0 } from "./helpers.js";
import { expectRetrieveMatchesScan } from "./reference-scan.js";

const VOCAB = ["rome", "hotel", "the", "trip", "cat", "of", "budget", "flight", "ana", "tea", "a"];
const MODEL = "prop-embedder";

const text = fc.array(fc.constantFrom(...VOCAB), { minLength: 0, maxLength: 7 }).map((w) => w.join(" "));
const vector = fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 3, maxLength: 3 });

const op = fc.oneof(
  fc.record({
    op: fc.constant("remember" as const),
    kind: fc.constantFrom(...KINDS),
    text,
    createdAt: fc.integer({ min: -50, max: 0 }),
    occurredAt: fc.option(fc.integer({ min: -80, max: 0 }), { nil: null }),
    accessed: fc.integer({ min: -60, max: 2 }),
    importance: fc.integer({ min: 1, max: 10 }),
    expires: fc.option(fc.integer({ min: -5, max: 10 }), { nil: null }),
    vector: fc.option(vector, { nil: null }),
  }),
  fc.record({ op: fc.constant("correct" as const), target: fc.nat(), text, vector: fc.option(vector, { nil: null }) }),
  fc.record({ op: fc.constant("retrieve" as const), query: text, advance: fc.integer({ min: 0, max: 5 }) }),
);

const weight = fc.constantFrom(-1, 0, 0.5, 1, 2);

const policyVariant = fc.record({
  base: fc.constantFrom(perKindPreset, pooledPreset, fullPolicy, streamPreset),
  relevance: fc.constantFrom<RelevanceBackendName>("words", "bm25", "embedding"),
  normalise: fc.constantFrom("none" as const, "minmax" as const),
  // Weights of either sign and decays with and without a bound: the walks' bounds hold for each.
  weights: fc.option(fc.tuple(weight, weight, weight), { nil: undefined }),
  decayRate: fc.constantFrom(0.5, 0.9, 0.995, 1),
  stopwords: fc.option(fc.boolean(), { nil: undefined }),
  quota: fc.option(fc.integer({ min: 0, max: 40 }), { nil: null }),
  fit: fc.constantFrom("stop" as const, "skip" as const),
  limit: fc.integer({ min: 0, max: 6 }),
  requireRelevance: fc.boolean(),
});

type Variant = typeof policyVariant extends fc.Arbitrary<infer T> ? T : never;

function policyOf(v: Variant): RetrievalPolicy {
  const sectionOverride = { quota: v.quota, fit: v.fit, limit: v.limit, requireRelevance: v.requireRelevance };
  return {
    ...v.base,
    score: { ...v.base.score, relevance: v.relevance, normalise: v.normalise, stopwords: v.stopwords, decayRate: v.decayRate, ...(v.weights === undefined ? {} : { weights: v.weights }) },
    sections: {
      ...v.base.sections,
      semantic: { ...v.base.sections.semantic, ...sectionOverride, score: { relevance: v.relevance } },
    },
    pooled: { ...v.base.pooled, ...sectionOverride, score: undefined },
    touch: true,
  };
}

describe("indexed retrieval", () => {
  it("equals a full scan over random stores", () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 30 }), policyVariant, fc.nat(2), (ops, variant, locateSeed) => {
        const store = memoryStore();
        const policy = policyOf(variant);
        let now = T0;
        const ids: string[] = [];
        for (const o of ops) {
          if (o.op === "remember") {
            const m: NewMemory = {
              scope: "u",
              kind: o.kind,
              text: o.text,
              createdAt: now + o.createdAt * HOUR,
              occurredAt: o.occurredAt === null ? null : now + o.occurredAt * HOUR,
              lastAccessedAt: now + o.accessed * HOUR,
              importance: o.importance,
              expiresAt: o.expires === null ? null : now + o.expires * HOUR,
              embedding: o.vector === null ? null : { model: MODEL, vector: o.vector },
            };
            ids.push(store.remember(m).id);
            store.remember({ ...m, scope: "other", text: `${o.text} rome` });
          } else if (o.op === "correct" && ids.length > 0) {
            const target = ids[o.target % ids.length];
            if (store.current("u", Number.NEGATIVE_INFINITY).some((m) => m.id === target)) {
              const fix = store.correct(target, {
                scope: "u",
                kind: store.get("u", target)!.kind,
                text: o.text,
                createdAt: now,
                embedding: o.vector === null ? null : { model: MODEL, vector: o.vector },
              });
              ids.push(fix.id);
            }
          } else if (o.op === "retrieve") {
            now += o.advance * HOUR;
            const locate = ids.filter((_, i) => (i * 7 + locateSeed) % 3 === 0);
            const request = { scope: "u", query: { text: o.query, embedding: { model: MODEL, vector: [1, -1, 2] } }, now, policy, locate };
            expectRetrieveMatchesScan(store, request);
          }
        }
        store.close();
      }),
      { numRuns: 150, seed: 20240601 },
    );
  });
});

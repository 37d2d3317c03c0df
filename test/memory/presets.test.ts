import { describe, expect, it } from "vitest";
import { retrievalPolicySchema } from "../../src/memory/policy-schema.js";
import {
  fullPolicy,
  perKindPreset,
  POOLED_QUOTA,
  pooledPreset,
  PRESETS,
  QUOTAS,
  streamPreset,
  WORKING_LIMIT,
} from "../../src/memory/presets.js";

describe("presets", () => {
  it("are plain JSON data that validates against the policy schema", () => {
    for (const preset of Object.values(PRESETS)) {
      expect(JSON.parse(JSON.stringify(preset))).toEqual(preset);
      expect(retrievalPolicySchema.parse(preset)).toEqual(preset);
    }
  });

  it("cannot be mutated in place", () => {
    expect(() => {
      (perKindPreset.sections.working as { limit: number }).limit = 99;
    }).toThrow();
  });

  it("stream: pooled top 5 by the three signals with embeddings, touching", () => {
    expect(streamPreset).toMatchObject({
      mode: "pooled",
      score: { weights: [1, 1, 1], decayRate: 0.995, normalise: "none", relevance: "embedding" },
      pooled: { order: "score", limit: 5, quota: null },
      touch: true,
    });
  });

  it("per-kind: working newest under WORKING_LIMIT; the rest by shared words under quotas", () => {
    expect(perKindPreset.sections.working).toMatchObject({ order: "newest", limit: WORKING_LIMIT, fit: "stop", requireRelevance: false, quota: QUOTAS.working });
    for (const kind of ["semantic", "episodic", "procedural"] as const) {
      expect(perKindPreset.sections[kind]).toMatchObject({
        order: "score",
        score: { weights: [1, 0, 0], relevance: "words" },
        fit: "skip",
        requireRelevance: true,
        quota: QUOTAS[kind],
      });
    }
  });

  it("pooled: one shared-words ranking under the summed quota", () => {
    expect(pooledPreset.mode).toBe("pooled");
    expect(pooledPreset.pooled).toMatchObject({ order: "score", score: { weights: [1, 0, 0], relevance: "words" }, quota: POOLED_QUOTA });
    expect(POOLED_QUOTA).toBe(QUOTAS.working + QUOTAS.semantic + QUOTAS.episodic + QUOTAS.procedural);
  });

  it("full: per-kind three-signal sections with kind-aware decay, touch and write-back", () => {
    expect(fullPolicy).toMatchObject({
      mode: "per-kind",
      score: { weights: [1, 1, 1], decayRate: 0.995, kindDecay: { semantic: 1, procedural: 1, episodic: 0.995 }, relevance: "words" },
      touch: true,
      writeBack: true,
    });
    expect(fullPolicy.sections.working.order).toBe("newest");
    expect(fullPolicy.sections.semantic.order).toBe("score");
    expect(fullPolicy.sections.semantic.score).toBeUndefined();
  });

  it("the schema rejects a malformed patch", () => {
    const bad = { ...fullPolicy, score: { ...fullPolicy.score, normalise: "zscore" } };
    expect(retrievalPolicySchema.safeParse(bad).success).toBe(false);
  });
});

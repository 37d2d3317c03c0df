import { describe, expect, it } from "vitest";
import { fullPolicy, policyKey, pooledPreset, type RetrievalPolicy } from "../../src/memory/index.js";

/** A policy key is equal exactly when two policies retrieve by the same settings. */
const withScore = (policy: RetrievalPolicy, score: Partial<RetrievalPolicy["score"]>): RetrievalPolicy => ({ ...policy, score: { ...policy.score, ...score } });

describe("policyKey", () => {
  it("ignores a decayRate that every kind ranked by score overrides, and a per-kind policy's pooled rule", () => {
    expect(policyKey(withScore(fullPolicy, { decayRate: 0.5 }))).toBe(policyKey(fullPolicy));
    expect(policyKey({ ...fullPolicy, pooled: { ...fullPolicy.pooled, limit: 1 } })).toBe(policyKey(fullPolicy));
  });

  it("ignores the unit of decay when nothing decays, and not otherwise", () => {
    const still = withScore(fullPolicy, { kindDecay: { semantic: 1, episodic: 1, procedural: 1 } });
    expect(policyKey(withScore(still, { unitMs: 1 }))).toBe(policyKey(still));
    expect(policyKey(withScore(fullPolicy, { unitMs: 1 }))).not.toBe(policyKey(fullPolicy));
  });

  it("tells apart what retrieval reads: touch, write-back, the mode and a pooled policy's decayRate", () => {
    const keys = [
      fullPolicy,
      { ...fullPolicy, touch: !fullPolicy.touch },
      { ...fullPolicy, writeBack: !fullPolicy.writeBack },
      { ...fullPolicy, mode: "pooled" as const },
      { ...withScore(fullPolicy, { decayRate: 0.5 }), mode: "pooled" as const },
      pooledPreset,
    ].map(policyKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

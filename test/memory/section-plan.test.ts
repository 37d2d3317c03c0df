import { describe, expect, it } from "vitest";
import { fullPolicy, perKindPreset, pooledPreset } from "../../src/memory/presets.js";
import { sectionPlan } from "../../src/memory/section-plan.js";
import { KINDS, type RetrievalPolicy } from "../../src/memory/types.js";

describe("sectionPlan", () => {
  it("plans one section per kind, in KINDS order, under a per-kind policy, and the pooled one alone under a pooled policy", () => {
    expect(sectionPlan(perKindPreset).map((s) => s.name)).toEqual([...KINDS]);
    expect(sectionPlan(perKindPreset).map((s) => s.rule)).toEqual(KINDS.map((kind) => perKindPreset.sections[kind]));
    expect(sectionPlan(pooledPreset)).toEqual([{ name: "pooled", rule: pooledPreset.pooled, score: { ...pooledPreset.score, ...pooledPreset.pooled.score } }]);
  });

  it("gives each section the policy's score settings with the section's own over them, setting by setting", () => {
    const policy: RetrievalPolicy = {
      ...fullPolicy,
      score: { ...fullPolicy.score, weights: [1, 1, 1], decayRate: 0.9 },
      sections: { ...fullPolicy.sections, episodic: { ...fullPolicy.sections.episodic, score: { weights: [1, 0, 0], relevance: "bm25" } } },
    };
    const [, semantic, episodic] = sectionPlan(policy);
    expect(semantic.score).toEqual({ ...policy.score, ...policy.sections.semantic.score });
    expect(episodic.score).toEqual({ ...policy.score, weights: [1, 0, 0], relevance: "bm25" });
    // What the section leaves unsaid comes from the policy.
    expect(episodic.score.decayRate).toBe(0.9);
  });

  it("reads a section without score settings of its own as the policy's, and changes neither", () => {
    const policy: RetrievalPolicy = { ...pooledPreset, pooled: { ...pooledPreset.pooled, score: undefined } };
    const before = structuredClone(policy);
    const [pooled] = sectionPlan(policy);
    expect(pooled.score).toEqual(policy.score);
    expect(pooled.score).not.toBe(policy.score);
    expect(policy).toEqual(before);
  });
});

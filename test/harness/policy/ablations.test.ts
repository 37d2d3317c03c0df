import { describe, expect, it } from "vitest";
import { fullPolicy, perKindPreset, pooledPreset, streamPreset } from "../../../src/memory/index.js";
import { KINDS, type RetrievalPolicy } from "../../../src/memory/types.js";
import { BUILT_IN_ABLATIONS, findAblation } from "../../../src/harness/policy/ablations.js";
import { applyPatch } from "../../../src/harness/policy/patch.js";
import { policyPatchSchema, policySchema } from "../../../src/harness/policy/schema.js";

const ablate = (name: string, base: RetrievalPolicy = fullPolicy) => applyPatch(base, findAblation(name)!.patch(base));

describe("built-in ablations", () => {
  it("have unique names, each found by name", () => {
    const names = BUILT_IN_ABLATIONS.map((a) => a.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(findAblation(name)?.name).toBe(name);
    expect(findAblation("no-such-ablation")).toBeUndefined();
  });

  it.each(BUILT_IN_ABLATIONS.map((a) => a.name))("%s is a valid patch giving a valid policy over every preset", (name) => {
    for (const base of [fullPolicy, streamPreset, perKindPreset, pooledPreset]) {
      const patch = findAblation(name)!.patch(base);
      expect(policyPatchSchema.safeParse(patch).success).toBe(true);
      expect(policySchema.safeParse(applyPatch(base, patch)).error).toBeUndefined();
    }
  });

  it("full is the base policy itself", () => {
    expect(ablate("full")).toEqual(fullPolicy);
  });

  it("each of the others changes exactly what its name says, over fullPolicy", () => {
    const { score } = fullPolicy;
    const everyKind = (rate: number) => Object.fromEntries(KINDS.map((k) => [k, rate]));
    const expected: Record<string, RetrievalPolicy> = {
      "relevance-only": { ...fullPolicy, score: { ...score, weights: [1, 0, 0] } },
      "recency-only": { ...fullPolicy, score: { ...score, weights: [0, 1, 0] } },
      "importance-only": { ...fullPolicy, score: { ...score, weights: [0, 0, 1] } },
      "no-decay": { ...fullPolicy, score: { ...score, decayRate: 1, kindDecay: everyKind(1) } },
      "no-kind-decay": { ...fullPolicy, score: { ...score, kindDecay: everyKind(0.995) } },
      "no-touch": { ...fullPolicy, touch: false },
      "no-write-back": { ...fullPolicy, writeBack: false },
      "ga-code": { ...fullPolicy, score: { ...score, normalise: "minmax", weights: [3, 0.5, 2] } },
      bm25: { ...fullPolicy, score: { ...score, relevance: "bm25" } },
      "relevance-only-bm25": { ...fullPolicy, score: { ...score, weights: [1, 0, 0], relevance: "bm25" } },
    };
    for (const [name, policy] of Object.entries(expected)) expect(ablate(name), name).toEqual(policy);
  });

  describe("pooled", () => {
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

    it("ranks every kind in one section with the same score and the same total token budget", () => {
      const pooled = ablate("pooled");
      const sections = KINDS.map((k) => fullPolicy.sections[k]);
      expect(pooled.mode).toBe("pooled");
      expect(pooled.score).toEqual(fullPolicy.score);
      expect(pooled.pooled).toEqual({
        order: "score",
        fit: "skip",
        limit: sum(sections.map((s) => s.limit)),
        quota: sum(sections.map((s) => s.quota!)),
        requireRelevance: false,
      });
      // 32 working + 48 semantic + 64 episodic + 24 procedural.
      expect(pooled.pooled.quota).toBe(168);
    });

    it("follows the base's quotas, so an experiment that patches a quota compares at the same budget", () => {
      const base = applyPatch(fullPolicy, { sections: { semantic: { quota: 100 } } });
      expect(ablate("pooled", base).pooled.quota).toBe(32 + 100 + 64 + 24);
    });

    it("has no quota when any per-kind section is unbounded", () => {
      const base = applyPatch(fullPolicy, { sections: { episodic: { quota: null } } });
      expect(ablate("pooled", base).pooled.quota).toBeNull();
    });
  });

  it("no-kind-decay follows the base's decay rate", () => {
    const base = applyPatch(fullPolicy, { score: { decayRate: 0.9 } });
    expect(ablate("no-kind-decay", base).score.kindDecay).toEqual({ working: 0.9, semantic: 0.9, episodic: 0.9, procedural: 0.9 });
  });
});

describe("policy patches", () => {
  it("reject unknown keys at every level, so a misspelt setting is an error", () => {
    for (const patch of [{ touches: false }, { score: { wieghts: [1, 0, 0] } }, { sections: { facts: {} } }, { sections: { semantic: { qouta: 3 } } }]) {
      const parsed = policyPatchSchema.safeParse(patch);
      expect(parsed.success, JSON.stringify(patch)).toBe(false);
      expect(parsed.error!.issues[0].code).toBe("unrecognized_keys");
    }
  });

  it("reject values the policy cannot hold", () => {
    expect(policyPatchSchema.safeParse({ score: { decayRate: 1.5 } }).success).toBe(false);
    expect(policyPatchSchema.safeParse({ score: { weights: [1, 0] } }).success).toBe(false);
    expect(policyPatchSchema.safeParse({ mode: "mixed" }).success).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { fullPolicy, perKindPreset, pooledPreset, streamPreset } from "../../../src/memory/index.js";
import { KINDS, type RetrievalPolicy } from "../../../src/memory/types.js";
import { BUILT_IN_ABLATIONS, findAblation } from "../../../src/harness/policy/ablations.js";
import { applyPatch } from "../../../src/harness/policy/patch.js";
import { policyPatchSchema, policySchema } from "../../../src/harness/policy/schema.js";
import { retrieve } from "../../../src/memory/retrieve.js";
import { HOUR, memoryStore, T0 } from "../../memory/helpers.js";

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
      bm25: { ...fullPolicy, score: { ...score, relevance: "bm25" } },
      "relevance-only-bm25": { ...fullPolicy, score: { ...score, weights: [1, 0, 0], relevance: "bm25" } },
    };
    for (const [name, policy] of Object.entries(expected)) expect(ablate(name), name).toEqual(policy);
  });

  describe("ga-code and ga-code-fixed", () => {
    // Three facts: a and c match the query alike and have the same importance; a was accessed
    // longest ago, c most recently, b in between and matches nothing but is the most important.
    const store = memoryStore();
    const fact = (id: string, text: string, importance: number, hoursAgo: number) => ({
      id, scope: "u", kind: "semantic" as const, text, importance, createdAt: T0 - 100 * HOUR, lastAccessedAt: T0 - hoursAgo * HOUR,
    });
    store.rememberMany([fact("a", "paris trip booked", 5, 30), fact("b", "bought new shoes", 8, 20), fact("c", "paris trip cancelled", 5, 10)]);
    const ranked = (name: string) => {
      const block = retrieve(store, { scope: "u", query: { text: "paris trip" }, now: T0, policy: { ...ablate(name), touch: false } });
      return block.sections.find((s) => s.name === "semantic")!.ranked.map(({ id, rel, rec, imp, total }) => ({ id, rel, rec, imp, total }));
    };
    // Min-max over the three: relevance 1, 0, 1 stays; importance 0.5, 0.8, 0.5 becomes 0, 1, 0.
    // Rank recency 0.99, 0.99², 0.99³ min-max scales to 1, (0.99² − 0.99³) / (0.99 − 0.99³) =
    // 0.0099 / 0.0199, 0; weights 3, 0.5, 2.
    const middle = 0.0099 / 0.0199;

    it("ga-code, as retrieve.py is written, gives the least recently accessed memory the highest recency", () => {
      const rows = ranked("ga-code");
      expect(rows.map((r) => r.id)).toEqual(["a", "c", "b"]);
      expect(rows[0]).toMatchObject({ rel: 1, rec: 1, imp: 0 });
      expect(rows[0].total).toBeCloseTo(3.5, 12);
      expect(rows[1]).toMatchObject({ rel: 1, rec: 0, imp: 0, total: 3 });
      expect(rows[2].rec).toBeCloseTo(middle, 12);
      expect(rows[2].total).toBeCloseTo(0.5 * middle + 2, 12);
    });

    it("ga-code-fixed gives it to the most recently accessed, so the two disagree on the top memory", () => {
      const rows = ranked("ga-code-fixed");
      expect(rows.map((r) => r.id)).toEqual(["c", "a", "b"]);
      expect(rows[0]).toMatchObject({ id: "c", rel: 1, rec: 1, imp: 0 });
      expect(rows[0].total).toBeCloseTo(3.5, 12);
      expect(rows[1]).toMatchObject({ id: "a", rec: 0, total: 3 });
      expect(rows[2].total).toBeCloseTo(0.5 * middle + 2, 12);
      expect(ranked("ga-code")[0].id).not.toBe(rows[0].id);
    });

    it("take retrieve.py's settings: rank recency 0.99 for every kind, min-max, gw [0.5, 3, 2] as [rel, rec, imp] = [3, 0.5, 2], the top 30", () => {
      for (const [name, order] of [["ga-code", "ascending"], ["ga-code-fixed", "descending"]] as const) {
        const policy = ablate(name);
        expect(policy.score).toMatchObject({ recency: "rank", recencyOrder: order, decayRate: 0.99, normalise: "minmax", weights: [3, 0.5, 2] });
        expect(policy.score.kindDecay).toEqual({ working: 0.99, semantic: 0.99, episodic: 0.99, procedural: 0.99 });
        for (const kind of KINDS) expect(policy.sections[kind].limit).toBe(30);
        expect(ablate(name, pooledPreset).pooled.limit).toBe(30);
      }
    });

    it("cite the file and function they reproduce", () => {
      expect(findAblation("ga-code")!.note).toMatch(/retrieve\.py .*generative_agents.*new_retrieve/);
    });
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

import { describe, expect, it } from "vitest";
import { fullPolicy, perKindPreset, pooledPreset, streamPreset } from "../../../src/memory/index.js";
import { KINDS, type RetrievalPolicy } from "../../../src/memory/types.js";
import { BUILT_IN_ABLATIONS, findAblation } from "../../../src/harness/policy/ablations.js";
import { applyPatch } from "../../../src/harness/policy/patch.js";
import { policyPatchSchema, policySchema } from "../../../src/harness/policy/schema.js";
import { retrieve } from "../../../src/memory/retrieve.js";
import { policyEmbeddingModel, usesEmbedding } from "../../../src/memory/policy-backends.js";
import { HYBRID_DEFAULTS } from "../../../src/memory/relevance/hybrid.js";
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
      embedding: { ...fullPolicy, score: { ...score, relevance: "embedding" } },
      "relevance-only-embedding": { ...fullPolicy, score: { ...score, weights: [1, 0, 0], relevance: "embedding" } },
      "relevance-only-hybrid": { ...fullPolicy, score: { ...score, weights: [1, 0, 0], relevance: "hybrid" } },
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

  describe("the embedding and hybrid ablations", () => {
    const EMBEDDING = ["embedding", "relevance-only-embedding", "ga-code-embedding", "relevance-only-hybrid"];

    it("are the only built-in ablations that rank by embedding, over the full policy", () => {
      expect(BUILT_IN_ABLATIONS.filter((a) => usesEmbedding(ablate(a.name))).map((a) => a.name)).toEqual(EMBEDDING);
    });

    it("name no model: the experiment's embedding model is written in when it loads", () => {
      for (const name of EMBEDDING) expect(policyEmbeddingModel(ablate(name))).toBeUndefined();
    });

    it("ga-code-embedding is ga-code with relevance by embedding, and nothing else", () => {
      const ga = ablate("ga-code", fullPolicy);
      expect(ablate("ga-code-embedding", fullPolicy)).toEqual({ ...ga, score: { ...ga.score, relevance: "embedding" } });
      // A section that names its own backend (the pooled preset's sections do) ranks by embedding too.
      const pooled = ablate("ga-code", pooledPreset);
      const byEmbedding = (rule: RetrievalPolicy["pooled"]) => (rule.score?.relevance === undefined ? rule : { ...rule, score: { ...rule.score, relevance: "embedding" as const } });
      expect(ablate("ga-code-embedding", pooledPreset)).toEqual({
        ...pooled,
        score: { ...pooled.score, relevance: "embedding" },
        sections: Object.fromEntries(KINDS.map((kind) => [kind, byEmbedding(pooled.sections[kind])])),
        pooled: byEmbedding(pooled.pooled),
      });
    });

    it("switches the backend in sections that name their own, so a backend ablation never ranks by words unseen", () => {
      for (const name of ["bm25", "relevance-only-bm25", "embedding", "relevance-only-embedding", "relevance-only-hybrid"]) {
        const policy = ablate(name, perKindPreset);
        for (const kind of ["semantic", "episodic", "procedural"] as const) expect(policy.sections[kind].score!.relevance, `${name} ${kind}`).toBe(policy.score.relevance);
        expect(policy.pooled.score!.relevance, name).toBe(policy.score.relevance);
      }
    });

    it("relevance-only-hybrid fuses with the defaults (reciprocal rank fusion), as its note says", () => {
      const policy = ablate("relevance-only-hybrid");
      expect(policy.score.hybrid).toBeUndefined();
      expect(HYBRID_DEFAULTS.fusion).toBe("rrf");
      expect(findAblation("relevance-only-hybrid")!.note).toMatch(/reciprocal rank fusion/);
    });

    it("rank a store by its vectors: by embedding the nearest memory first though it shares no word, fused the one both rankings like", () => {
      const store = memoryStore();
      const fact = (id: string, text: string, vector: number[]) => ({ id, scope: "u", kind: "semantic" as const, text, createdAt: T0, embedding: { model: "m", vector } });
      store.rememberMany([fact("dog", "we got a new dog", [1, 0]), fact("stocks", "the puppy market fell", [0, 1]), fact("cat", "a cat sleeps", [-1, 0])]);
      const query = { text: "puppy", embedding: { model: "m", vector: [0.9, 0.1] } };
      const semantic = (name: string) =>
        retrieve(store, { scope: "u", query, now: T0, policy: { ...ablate(name), touch: false } }).sections.find((s) => s.name === "semantic")!.ranked.map((r) => r.id);
      expect(semantic("relevance-only-embedding")).toEqual(["dog", "stocks", "cat"]);
      expect(semantic("relevance-only-bm25")[0]).toBe("stocks");
      // Dense ranks dog, stocks, cat; BM25 ranks stocks alone: fused at weight ½, stocks (½/62 + ½/61) before dog (½/61) before cat (½/63).
      expect(semantic("relevance-only-hybrid")).toEqual(["stocks", "dog", "cat"]);
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

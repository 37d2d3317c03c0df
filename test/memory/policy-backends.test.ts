import { describe, expect, it } from "vitest";
import { policyEmbeddingModel, rankingConfigs, usesEmbedding } from "../../src/memory/policy-backends.js";
import { fullPolicy, perKindPreset, pooledPreset, streamPreset } from "../../src/memory/presets.js";
import { KINDS, type RelevanceBackendName, type RetrievalPolicy, type ScoreConfig, type SectionRule } from "../../src/memory/types.js";

/** A complete policy; `relevance` is the knob these tests turn. */
function testPolicy(relevance: RelevanceBackendName = "words"): RetrievalPolicy {
  const rule: SectionRule = { order: "score", fit: "skip", limit: 5, quota: null, requireRelevance: false };
  return {
    mode: "per-kind",
    score: { weights: [1, 1, 1], decayRate: 0.995, kindDecay: {}, unitMs: 3_600_000, normalise: "none", relevance },
    sections: { working: { ...rule, order: "newest", fit: "stop" }, semantic: rule, episodic: rule, procedural: rule },
    pooled: rule,
    touch: true,
    writeBack: true,
  };
}

/** `policy` with `kind`'s section given `score` (and, optionally, another order). */
function withSection(policy: RetrievalPolicy, kind: (typeof KINDS)[number], score: Partial<ScoreConfig>, order?: SectionRule["order"]): RetrievalPolicy {
  return { ...policy, sections: { ...policy.sections, [kind]: { ...policy.sections[kind], score, ...(order === undefined ? {} : { order }) } } };
}

describe("rankingConfigs", () => {
  it("lists the score settings of each per-kind section ordered by score, its own over the policy's", () => {
    const policy = withSection(testPolicy(), "episodic", { relevance: "bm25", weights: [1, 0, 0] });
    const { score } = policy;
    // working is ordered by newest, so it ranks by nothing.
    expect(rankingConfigs(policy)).toEqual([score, { ...score, relevance: "bm25", weights: [1, 0, 0] }, score]);
  });

  it("lists the pooled section alone in pooled mode, and nothing when it is ordered by newest", () => {
    const policy: RetrievalPolicy = { ...withSection(testPolicy(), "semantic", { relevance: "embedding" }), mode: "pooled", pooled: { ...testPolicy().pooled, score: { relevance: "hybrid" } } };
    expect(rankingConfigs(policy)).toEqual([{ ...policy.score, relevance: "hybrid" }]);
    expect(rankingConfigs({ ...policy, pooled: { ...policy.pooled, order: "newest" } })).toEqual([]);
  });

  it("reads the presets as retrieval does", () => {
    expect(rankingConfigs(streamPreset).map((c) => c.relevance)).toEqual(["embedding"]);
    expect(rankingConfigs(perKindPreset).map((c) => c.relevance)).toEqual(["words", "words", "words"]);
    expect(rankingConfigs(pooledPreset).map((c) => c.relevance)).toEqual(["words"]);
    expect(rankingConfigs(fullPolicy)).toHaveLength(3);
  });
});

describe("usesEmbedding", () => {
  it("follows the policy's backend and per-section overrides of score-ordered sections", () => {
    expect(usesEmbedding(testPolicy("embedding"))).toBe(true);
    expect(usesEmbedding(testPolicy("hybrid"))).toBe(true);
    expect(usesEmbedding(testPolicy("words"))).toBe(false);
    expect(usesEmbedding(testPolicy("bm25"))).toBe(false);
    const override = withSection(testPolicy("words"), "episodic", { relevance: "embedding" });
    expect(usesEmbedding(override)).toBe(true);
    expect(usesEmbedding(withSection(testPolicy("bm25"), "procedural", { relevance: "hybrid" }))).toBe(true);
    // A section ordered by newest ranks by nothing, whatever its score says.
    const newestOnly = withSection(testPolicy("words"), "working", { relevance: "embedding" });
    expect(usesEmbedding(newestOnly)).toBe(false);
    expect(usesEmbedding(withSection(testPolicy("words"), "semantic", { relevance: "embedding" }, "newest"))).toBe(false);
    // Pooled mode ranks by the pooled section alone.
    expect(usesEmbedding({ ...override, mode: "pooled" })).toBe(false);
    // A section can turn the policy's embedding off, and when every one does, none is needed.
    let off = testPolicy("embedding");
    for (const kind of ["semantic", "episodic", "procedural"] as const) off = withSection(off, kind, { relevance: "bm25" });
    expect(usesEmbedding(off)).toBe(false);
  });

  it("is true of the stream preset only, among the presets", () => {
    expect([streamPreset, perKindPreset, pooledPreset, fullPolicy].map(usesEmbedding)).toEqual([true, false, false, false]);
  });
});

describe("policyEmbeddingModel", () => {
  it("is undefined when nothing ranks by embedding, even if a model is named, and when none is named", () => {
    expect(policyEmbeddingModel(testPolicy("words"))).toBeUndefined();
    expect(policyEmbeddingModel({ ...testPolicy("bm25"), score: { ...testPolicy("bm25").score, embeddingModel: "ollama:x" } })).toBeUndefined();
    expect(policyEmbeddingModel(testPolicy("embedding"))).toBeUndefined();
  });

  it("is the one model the ranking sections name, the policy's or a section's own", () => {
    const named = { ...testPolicy("embedding"), score: { ...testPolicy("embedding").score, embeddingModel: "openai:text-embedding-3-small" } };
    expect(policyEmbeddingModel(named)).toBe("openai:text-embedding-3-small");
    expect(policyEmbeddingModel(withSection(testPolicy("words"), "semantic", { relevance: "hybrid", embeddingModel: "ollama:nomic-embed-text" }))).toBe(
      "ollama:nomic-embed-text",
    );
    // Sections naming the same model agree; one naming a model for a words ranking does not count.
    const agreeing = withSection(withSection(named, "episodic", { embeddingModel: "openai:text-embedding-3-small" }), "procedural", { relevance: "words", embeddingModel: "use-lite" });
    expect(policyEmbeddingModel(agreeing)).toBe("openai:text-embedding-3-small");
    // A model named by a section ordered by newest does not count either.
    expect(policyEmbeddingModel(withSection(named, "working", { embeddingModel: "use-lite" }))).toBe("openai:text-embedding-3-small");
  });

  it("refuses two sections that rank by two models, naming both", () => {
    const two = withSection(withSection(testPolicy("embedding"), "semantic", { embeddingModel: "use-lite" }), "episodic", { relevance: "hybrid", embeddingModel: "ollama:nomic-embed-text" });
    expect(() => policyEmbeddingModel(two)).toThrow(
      new Error("the policy's sections rank by 2 embedding models (use-lite, ollama:nomic-embed-text); one query has one vector, so name one model"),
    );
  });
});

import { KINDS, type RelevanceBackendName, type RetrievalPolicy } from "../../memory/index.js";
import { mergePatches } from "./patch.js";
import type { PolicyPatch } from "./schema.js";

/**
 * An ablation is a named patch over the experiment's base policy. Some patches depend on the base
 * (pooled keeps the same total token budget), so each is a function of it.
 */
export interface Ablation {
  name: string;
  /**
   * Why the ablation is run, in words that state no setting: reports describe the settings
   * themselves from the resolved policy (see describe.ts), so the two cannot disagree.
   */
  note: string;
  patch: (base: RetrievalPolicy) => PolicyPatch;
}

/** Patches merge objects key by key, so a per-kind setting is replaced by naming every kind. */
const everyKind = (rate: number) => Object.fromEntries(KINDS.map((kind) => [kind, rate]));

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * Relevance by `backend` wherever the policy ranks: its score settings, and any section whose own
 * settings name a backend (the per-kind preset's sections do), since a section's own wins.
 */
function relevancePatch(base: RetrievalPolicy, backend: RelevanceBackendName, weights?: [number, number, number]): PolicyPatch {
  const score = { relevance: backend, ...(weights === undefined ? {} : { weights }) };
  const own = (rule: { score?: { relevance?: unknown; weights?: unknown } }) => rule.score?.relevance !== undefined || (weights !== undefined && rule.score?.weights !== undefined);
  const sections = Object.fromEntries(KINDS.filter((kind) => own(base.sections[kind])).map((kind) => [kind, { score }]));
  return {
    score,
    ...(Object.keys(sections).length === 0 ? {} : { sections }),
    ...(own(base.pooled) ? { pooled: { score } } : {}),
  };
}

/** One section with the same score and the same total budget as the per-kind sections. */
function pooledPatch(base: RetrievalPolicy): PolicyPatch {
  const sections = KINDS.map((kind) => base.sections[kind]);
  const quotas = sections.map((s) => s.quota);
  return {
    mode: "pooled",
    pooled: {
      order: "score",
      fit: "skip",
      limit: sum(sections.map((s) => s.limit)),
      quota: quotas.some((q) => q === null) ? null : sum(quotas as number[]),
      requireRelevance: false,
    },
  };
}

/**
 * retrieve.py's new_retrieve: recency 0.99 ** position over the candidates sorted by last access,
 * every signal min-max scaled, gw = [0.5, 3, 2] for recency, relevance and importance, the top 30.
 * One decay for every kind, as the code has no kinds; the section quotas still apply.
 */
function gaCodePatch(order: "ascending" | "descending"): (base: RetrievalPolicy) => PolicyPatch {
  const top30 = Object.fromEntries(KINDS.map((kind) => [kind, { limit: 30 }]));
  return () => ({
    score: { recency: "rank", recencyOrder: order, decayRate: 0.99, kindDecay: everyKind(0.99), normalise: "minmax", weights: [3, 0.5, 2] },
    sections: top30,
    pooled: { limit: 30 },
  });
}

export const BUILT_IN_ABLATIONS: readonly Ablation[] = [
  { name: "full", note: "the whole system, the baseline every other ablation is a patch of", patch: () => ({}) },
  { name: "relevance-only", note: "relevance alone, as in plain retrieval-augmented generation", patch: () => ({ score: { weights: [1, 0, 0] } }) },
  { name: "recency-only", note: "the most recently used first", patch: () => ({ score: { weights: [0, 1, 0] } }) },
  { name: "importance-only", note: "the most important first", patch: () => ({ score: { weights: [0, 0, 1] } }) },
  { name: "no-importance", note: "relevance and recency without importance", patch: (base) => ({ score: { weights: [base.score.weights[0], base.score.weights[1], 0] } }) },
  { name: "no-decay", note: "recency never fades", patch: () => ({ score: { decayRate: 1, kindDecay: everyKind(1) } }) },
  {
    name: "no-kind-decay",
    note: "facts and procedures age like episodes",
    patch: (base) => ({ score: { kindDecay: everyKind(base.score.decayRate) } }),
  },
  { name: "no-touch", note: "retrieval does not keep what it returns fresh", patch: () => ({ touch: false }) },
  { name: "no-write-back", note: "the conversation itself is not remembered", patch: () => ({ writeBack: false }) },
  { name: "pooled", note: "one ranking over every kind, at the same score and the same total token budget", patch: pooledPatch },
  {
    name: "ga-code",
    note:
      "retrieve.py of joonspk-research/generative_agents as written (new_retrieve, extract_recency): " +
      "recency by position in last-access order with the least recently accessed first, an inversion others have documented",
    patch: gaCodePatch("ascending"),
  },
  {
    name: "ga-code-fixed",
    note: "the same retrieve.py settings with the most recently accessed first, as the paper intends: what the inversion costs",
    patch: gaCodePatch("descending"),
  },
  { name: "bm25", note: "BM25 instead of shared words", patch: (base) => relevancePatch(base, "bm25") },
  {
    name: "relevance-only-bm25",
    note: "BM25 relevance alone: the lexical retrieval baseline",
    patch: (base) => relevancePatch(base, "bm25", [1, 0, 0]),
  },
  {
    name: "embedding",
    note: "the whole system with relevance by embeddings, the memory stream's own signal",
    patch: (base) => relevancePatch(base, "embedding"),
  },
  {
    name: "relevance-only-embedding",
    note: "embedding relevance alone: dense retrieval, the baseline of retrieval-augmented generation",
    patch: (base) => relevancePatch(base, "embedding", [1, 0, 0]),
  },
  {
    name: "ga-code-embedding",
    note: "retrieve.py of joonspk-research/generative_agents as written, with relevance by embeddings as it runs in that code",
    patch: (base) => mergePatches(gaCodePatch("ascending")(base), relevancePatch(base, "embedding")),
  },
  {
    name: "relevance-only-hybrid",
    note: "BM25 and embeddings fused (reciprocal rank fusion), alone: the hybrid retriever of memory products",
    patch: (base) => relevancePatch(base, "hybrid", [1, 0, 0]),
  },
];

export function findAblation(name: string): Ablation | undefined {
  return BUILT_IN_ABLATIONS.find((a) => a.name === name);
}

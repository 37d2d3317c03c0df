import { KINDS, type RetrievalPolicy } from "../../memory/types.js";
import type { PolicyPatch } from "./schema.js";

/**
 * An ablation is a named patch over the experiment's base policy. Some patches depend on the base
 * (pooled keeps the same total token budget), so each is a function of it.
 */
export interface Ablation {
  name: string;
  description: string;
  patch: (base: RetrievalPolicy) => PolicyPatch;
}

/** Patches merge objects key by key, so a per-kind setting is replaced by naming every kind. */
const everyKind = (rate: number) => Object.fromEntries(KINDS.map((kind) => [kind, rate]));

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

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

export const BUILT_IN_ABLATIONS: readonly Ablation[] = [
  { name: "full", description: "the whole system: per-kind sections, three signals, kind-aware decay, touch, write-back", patch: () => ({}) },
  { name: "relevance-only", description: "weights [1, 0, 0]: relevance alone, as in plain RAG", patch: () => ({ score: { weights: [1, 0, 0] } }) },
  { name: "recency-only", description: "weights [0, 1, 0]: the most recently used first", patch: () => ({ score: { weights: [0, 1, 0] } }) },
  { name: "importance-only", description: "weights [0, 0, 1]: the most important first", patch: () => ({ score: { weights: [0, 0, 1] } }) },
  { name: "no-decay", description: "decay rate 1 for every kind: recency is constant", patch: () => ({ score: { decayRate: 1, kindDecay: everyKind(1) } }) },
  {
    name: "no-kind-decay",
    description: "every kind decays at the base rate: facts age like episodes",
    patch: (base) => ({ score: { kindDecay: everyKind(base.score.decayRate) } }),
  },
  { name: "no-touch", description: "retrieval does not refresh last access", patch: () => ({ touch: false }) },
  { name: "no-write-back", description: "chat turns are not stored", patch: () => ({ writeBack: false }) },
  { name: "pooled", description: "one ranking over every kind with the same score and total token budget", patch: pooledPatch },
  {
    name: "ga-code",
    description: "the Generative Agents code: min-max normalised signals, weights relevance 3, recency 0.5, importance 2",
    patch: () => ({ score: { normalise: "minmax", weights: [3, 0.5, 2] } }),
  },
  { name: "bm25", description: "BM25 relevance instead of shared words", patch: () => ({ score: { relevance: "bm25" } }) },
  {
    name: "relevance-only-bm25",
    description: "BM25 relevance alone, weights [1, 0, 0]",
    patch: () => ({ score: { weights: [1, 0, 0], relevance: "bm25" } }),
  },
];

export function findAblation(name: string): Ablation | undefined {
  return BUILT_IN_ABLATIONS.find((a) => a.name === name);
}

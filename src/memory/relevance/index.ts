/**
 * Relevance backends behind one interface. Each scores the slots of one scope's index for a
 * query; the section ranking then picks its candidates and, for bm25, scales within them.
 */
import type { RelevanceBackendName } from "../types.js";
import { bm25Relevance } from "./bm25.js";
import { embeddingRelevance } from "./embedding.js";
import { hybridRelevance } from "./hybrid.js";
import type { RelevanceBackend } from "./types.js";
import { wordsRelevance } from "./words.js";

export type { RelevanceBackend, RelevanceInput, RelevanceScores } from "./types.js";

export const RELEVANCE_BACKENDS: Readonly<Record<RelevanceBackendName, RelevanceBackend>> = {
  words: wordsRelevance,
  bm25: bm25Relevance,
  embedding: embeddingRelevance,
  hybrid: hybridRelevance,
};

/** Stopword removal when a score config does not say: on for bm25 (and the bm25 half of hybrid) only. */
export function defaultStopwords(backend: RelevanceBackendName): boolean {
  return backend === "bm25" || backend === "hybrid";
}

/** Whether a backend ranks by vectors, so that queries (and memories) need an embedding. */
export function needsEmbedding(backend: RelevanceBackendName): boolean {
  return backend === "embedding" || backend === "hybrid";
}

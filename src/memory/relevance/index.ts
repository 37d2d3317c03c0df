/**
 * Relevance backends behind one interface. Each scores the slots of one scope's index for a
 * query; the section ranking then picks its candidates and, for bm25, scales within them.
 */
import type { ScopeIndex } from "../store/index-columns.js";
import type { Query, RelevanceBackendName } from "../types.js";
import { bm25Relevance } from "./bm25.js";
import { embeddingRelevance } from "./embedding.js";
import { wordsRelevance } from "./words.js";

export interface RelevanceInput {
  index: ScopeIndex;
  query: Query;
  now: number;
  /** Drop stopwords from query and memory words (ignored by `embedding`). */
  stopwords: boolean;
}

export interface RelevanceScores {
  /**
   * Raw relevance per slot (at least index.size long, from the index's scoresBuffer); 0 where
   * nothing matched. Embeddings give slots that are not current a value too.
   */
  values: Float64Array;
  /** The only slots that can be above 0 (from postings), or null when any slot can be. */
  matched: Int32Array | null;
  /** True when scores are to be divided by their maximum over a section's candidates (bm25). */
  scaleToCandidates: boolean;
}

export type RelevanceBackend = (input: RelevanceInput) => RelevanceScores;

export const RELEVANCE_BACKENDS: Readonly<Record<RelevanceBackendName, RelevanceBackend>> = {
  words: wordsRelevance,
  bm25: bm25Relevance,
  embedding: embeddingRelevance,
};

/** Stopword removal when a score config does not say: on for bm25 only. */
export function defaultStopwords(backend: RelevanceBackendName): boolean {
  return backend === "bm25";
}

/** The contract for the model layer: one model per embedder, many texts per call. */
export interface Embedder {
  /** Id recorded with every vector this embedder makes. */
  readonly model: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

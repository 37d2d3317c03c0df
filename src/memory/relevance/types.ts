/**
 * The contract every relevance backend meets, apart from the table that lists the backends
 * (index.ts), so that a backend and the table do not import each other.
 */
import type { ScopeIndex } from "../store/index-columns.js";
import type { HybridConfig, Query } from "../types.js";

export interface RelevanceInput {
  index: ScopeIndex;
  query: Query;
  now: number;
  /** Drop stopwords from query and memory words (ignored by `embedding`). */
  stopwords: boolean;
  /** How `hybrid` fuses its two scores; the others ignore it. */
  hybrid?: Partial<HybridConfig>;
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
  /**
   * At least the largest value of any slot below index.size (NaN when some value is NaN), when
   * the backend knows it without another pass: ranking bounds every memory's relevance by it.
   */
  largest?: number;
}

export type RelevanceBackend = (input: RelevanceInput) => RelevanceScores;

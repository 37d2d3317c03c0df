/**
 * The memory system's public types. Everything the harness, the model layer and library users
 * exchange with src/memory is declared here, so this file is the contract to read first.
 */

export const KINDS = ["working", "semantic", "episodic", "procedural"] as const;
export type Kind = (typeof KINDS)[number];

/** A stored memory. Times are epoch milliseconds on the caller's virtual clock. */
export interface Memory {
  id: string;
  /** Whose memory this is; retrieval never crosses scopes. */
  scope: string;
  kind: Kind;
  text: string;
  createdAt: number;
  /** Episodic: when the event happened. Null for other kinds unless given. */
  occurredAt: number | null;
  lastAccessedAt: number;
  /** 1–10, set once at write time. */
  importance: number;
  /** Gemma-token cost of this memory's line, counted once at write time. */
  tokens: number;
  /** Id of the memory this one corrects; the corrected memory is no longer current. */
  supersedes: string | null;
  expiresAt: number | null;
  /** Provenance, e.g. a dataset turn id. */
  source: string | null;
  /** As stored, float32. A memory the store returns from a write holds the caller's own Float32Array. */
  embedding: Float32Array | null;
  /** Id of the model that made `embedding`. */
  embeddingModel: string | null;
}

/** What a caller supplies to write a memory; the store fills in the rest. */
export interface NewMemory {
  /**
   * Defaults to a deterministic id derived from scope and insertion sequence. A given id is
   * non-empty and holds no control character (C0, DEL, C1).
   */
  id?: string;
  scope: string;
  kind: Kind;
  text: string;
  createdAt: number;
  occurredAt?: number | null;
  /** Defaults to createdAt. */
  lastAccessedAt?: number;
  /** From 1 to 10; defaults to DEFAULT_IMPORTANCE. */
  importance?: number;
  /**
   * Id of the memory this one corrects: one already stored in the scope, or written earlier in
   * the same batch, and not corrected yet.
   */
  supersedes?: string | null;
  expiresAt?: number | null;
  source?: string | null;
  embedding?: { model: string; vector: ArrayLike<number> } | null;
}

export const DEFAULT_IMPORTANCE = 5;

export type RelevanceBackendName = "words" | "bm25" | "embedding" | "hybrid";

/** How `hybrid` relevance fuses BM25 and embeddings (see relevance/hybrid.ts). */
export interface HybridConfig {
  /** `rrf`: reciprocal rank fusion. `convex`: a weighted sum of the two min-max scaled scores. */
  fusion: "rrf" | "convex";
  /** The embedding's share, in [0, 1]; BM25 gets the rest. */
  weight: number;
  /** RRF's rank constant (60 in the original paper); unused by `convex`. */
  k: number;
}

/** A query: its text always, its vector when the embedding backend is used. */
export interface Query {
  text: string;
  embedding?: { model: string; vector: ArrayLike<number> };
}

/** How the three signals combine into one score. */
export interface ScoreConfig {
  /** [relevance, recency, importance]. */
  weights: [number, number, number];
  /** Per-hour decay of recency, e.g. 0.995. 1 means no decay. */
  decayRate: number;
  /** Per-kind decay rates that override decayRate (1 = the kind resists decay). */
  kindDecay: Partial<Record<Kind, number>>;
  /** Length of one decay step in ms (one hour by default). */
  unitMs: number;
  /**
   * How recency is measured (default `time`): `decayRate ** units` since last access, or `rank`,
   * `decayRate ** position` over the section's candidates in last-access order, as the Generative
   * Agents code computes it (unitMs then plays no part).
   */
  recency?: "time" | "rank";
  /**
   * The last-access order of `rank` recency (default `descending`): `descending` puts the most
   * recently accessed candidate at position 1, as the paper intends; `ascending` puts the least
   * recently accessed there, as retrieve.py does. Ties go by id.
   */
  recencyOrder?: "ascending" | "descending";
  /** `minmax` scales each signal over one query's candidates, as the Generative Agents code does. */
  normalise: "none" | "minmax";
  relevance: RelevanceBackendName;
  /**
   * Drop English stopwords (STOPWORDS) from query and memory words before matching. When
   * absent: on for `bm25` and `hybrid`, off for `words`; `embedding` ignores it.
   */
  stopwords?: boolean;
  /** The fusion of `hybrid` relevance; HYBRID_DEFAULTS fill what is not given. */
  hybrid?: Partial<HybridConfig>;
  /**
   * The embedding model the `embedding` and `hybrid` backends rank by (a caller embeds queries and
   * memories with it); when absent, the caller's default.
   */
  embeddingModel?: string;
}

/** How one section of the block chooses and fits its memories. */
export interface SectionRule {
  /** `newest`: by createdAt, newest first. `score`: by the three-signal score. */
  order: "newest" | "score";
  /** Overrides the policy's score config for this section only (e.g. words-only ordering). */
  score?: Partial<ScoreConfig>;
  /** `stop` at the first item that does not fit the quota, or `skip` it and go on. */
  fit: "stop" | "skip";
  /** At most this many items are kept. */
  limit: number;
  /** Token quota for the section's memory lines; null means unbounded. */
  quota: number | null;
  /** Only memories with relevance > 0 are candidates. */
  requireRelevance: boolean;
}

/**
 * One config type describes every retrieval variant the harness compares. Ablations are JSON
 * patches over this shape, so every field is plain data.
 */
export interface RetrievalPolicy {
  /** `per-kind`: a section for each kind with its own rule. `pooled`: one ranking, one quota. */
  mode: "per-kind" | "pooled";
  score: ScoreConfig;
  sections: Record<Kind, SectionRule>;
  pooled: SectionRule;
  /** Set lastAccessedAt = now on what was returned, after scoring. */
  touch: boolean;
  /** Store each chat turn as an episodic memory. */
  writeBack: boolean;
}

/** Why a memory ranked where it did. */
export interface ScoreBreakdown {
  rel: number;
  rec: number;
  imp: number;
  total: number;
}

export interface RankedMemory extends ScoreBreakdown {
  id: string;
  kind: Kind;
  /** The memory's provenance (e.g. a dataset turn id). */
  source: string | null;
  /** 1-based rank within its section's ordering (before fitting). */
  rank: number;
  tokens: number;
}

export type SectionName = Kind | "pooled";

export interface Section {
  name: SectionName;
  /**
   * The head of the ordering the section was filled from, as deep as filling looked through it,
   * then the located memories that place deeper and their neighbours when asked for; each with
   * its rank and score breakdown, in rank order. A `skip` section can keep memories past its head
   * (see `kept`); they appear here when located.
   */
  ranked: RankedMemory[];
  /** Ids that reached the block, in block order. */
  kept: string[];
  /** Ranked ids that were not kept (by quota or limit). */
  dropped: string[];
  tokensUsed: number;
  quota: number | null;
}

export interface Block {
  sections: Section[];
  /** The rendered block, escaped, ready to inject into a prompt. */
  text: string;
}

export interface RetrieveRequest {
  scope: string;
  query: Query;
  now: number;
  policy: RetrievalPolicy;
  /**
   * Memory ids whose rank and score breakdown each section should report however deep they
   * place, for evaluation (where did the gold memories rank?). Ids that are not candidates of a
   * section, or not stored, are left out.
   */
  locate?: readonly string[];
  /**
   * Report a located memory only when it places within this many of its section's first
   * (default: wherever it places). Evaluation that reads ranks up to k only (recall@k, nDCG@k)
   * is spared counting everything ranked above a memory that places deep.
   */
  locateWithin?: number;
  /**
   * How many memories just before and just after each located one to report too (default 0):
   * evaluation reads them to say which memories overtook a gold one.
   */
  neighbours?: number;
}

/** A chat turn to be written back as an episodic memory. */
export interface Turn {
  scope: string;
  user: string;
  assistant?: string;
  now: number;
  id?: string;
  importance?: number;
  /** The turn's embedding, when the embedding backend is in use. */
  embedding?: { model: string; vector: ArrayLike<number> } | null;
}

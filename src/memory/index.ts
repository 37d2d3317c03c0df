/**
 * The memory system's public surface: the only module outside src/memory may import.
 *
 * @example
 * ```ts
 * const store = openStore(":memory:", { tokenizer: await loadGemmaTokenizer() });
 * store.remember({ scope: "ana", kind: "semantic", text: "Ana lives in Porto.", createdAt: now });
 * const block = retrieve(store, { scope: "ana", query: { text: "where does Ana live?" }, now, policy: perKindPreset });
 * block.text; // the prompt block, one section per kind
 * ```
 * See examples/memory-library/remember-and-retrieve.ts for the whole of it, run by its test.
 *
 * @packageDocumentation
 */
/** Memories, queries, policies and blocks: the types every call below takes or gives. */
export * from "./types.js";
/** The scoring contract: recency, importance, relevance and their weighted sum, pure functions. */
export {
  HOUR_MS,
  importanceScore,
  recencyScore,
  relevanceScore,
  retrievalScore,
} from "./scoring.js";
/** How text becomes words for the words and bm25 backends. */
export { STOPWORDS, tokenizeWords, wordSet } from "./words.js";
/** How a memory's text is escaped and rendered as one line of a block. */
export { escapeMemoryText, LINE_BREAKS, renderLine } from "./escape.js";
/** The pinned Gemma tokenizer that prices each memory's line at write time. */
export {
  type GemmaTokenizer,
  gemmaTokenizer,
  gemmaTokenizerFiles,
  loadGemmaTokenizer,
  loadTokenizerFromFiles,
  TOKENIZER_MANIFEST,
  type TokenCounter,
  tokenizerSha256,
} from "./tokenizer.js";
/** Counts a completed request, chat template included, before it is sent. */
export { applyGemmaChatTemplate, type ChatMessage, countRequest } from "./count-request.js";
/** Ready-made retrieval policies (stream, per-kind, pooled, full) and their limits. */
export {
  fullPolicy,
  perKindPreset,
  POOLED_QUOTA,
  pooledPreset,
  PRESET_NAMES,
  PRESETS,
  type PresetName,
  QUOTAS,
  streamPreset,
  WORKING_LIMIT,
} from "./presets.js";
/** Validates a retrieval policy read from a file. */
export { retrievalPolicySchema, scoreConfigSchema, sectionRuleSchema } from "./policy-schema.js";
/**
 * `retrieve(store, request)` ranks, fits, touches and renders one block; `retrieveUnder(store,
 * ask, policies)` renders one ask's blocks under many policies over an unchanged store, scoring
 * the ask once.
 */
export { type AskRequest, retrieve, retrieveUnder } from "./retrieve.js";
export { PolicyKeys } from "./ask-relevance.js";
/** Stores a chat turn as an episodic memory. */
export { turnText, writeBack } from "./write-back.js";
/** What a policy's sections need from the caller (an embedding, and of which model). */
export { policyEmbeddingModel, rankingConfigs, usesEmbedding } from "./policy-backends.js";
/** Each section of a policy with its own score settings merged over the policy's. */
export { type PlannedSection, sectionPlan } from "./section-plan.js";
/** What a policy's blocks depend on, as a key: policies with equal keys retrieve alike. */
export { policyKey } from "./section-key.js";
/** The relevance backends and their settings. */
export { HYBRID_DEFAULTS } from "./relevance/hybrid.js";
export {
  defaultStopwords,
  needsEmbedding,
  RELEVANCE_BACKENDS,
  type RelevanceBackend,
} from "./relevance/index.js";
export { BM25_B, BM25_K1 } from "./relevance/bm25.js";
/**
 * `openStore(file, options)` opens or creates an SQLite memory store; the MemoryStore it gives
 * writes, corrects, lists and touches memories, and lends its embeddings read-only.
 */
export { type MemoryStore, type OpenStoreOptions, openStore, type StoredEmbeddings } from "./store/store.js";
/** Short-lived in-memory stores, one after another, each connection's schema and statements made once. */
export { ScratchStores } from "./store/scratch-stores.js";
/** The store's schema versions, for tools that read or migrate its files. */
export { LEGACY_SCOPE } from "./store/schema.js";
export { SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4 } from "./store/migrations.js";
export { SCHEMA_V5, vectorToBlob } from "./store/schema.js";

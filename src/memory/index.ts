/** The memory system's public surface. */
export * from "./types.js";
export {
  DEFAULT_DECAY_RATE,
  HOUR_MS,
  importanceScore,
  recencyScore,
  relevanceScore,
  retrievalScore,
} from "./scoring.js";
export { STOPWORDS, tokenizeWords, wordSet } from "./words.js";
export { escapeMemoryText, LINE_BREAKS, renderLine } from "./escape.js";
export {
  type GemmaTokenizer,
  gemmaTokenizerFiles,
  loadGemmaTokenizer,
  loadTokenizerFromFiles,
  TOKENIZER_MANIFEST,
  type TokenCounter,
  type TokenizerManifest,
} from "./tokenizer.js";
export { applyGemmaChatTemplate, type ChatMessage, countRequest } from "./count-request.js";
export {
  FULL_QUOTAS,
  fullPolicy,
  perKindPreset,
  POOLED_LIMIT,
  POOLED_QUOTA,
  pooledPreset,
  PRESET_NAMES,
  PRESETS,
  type PresetName,
  QUOTAS,
  SECTION_LIMITS,
  streamPreset,
  WORKING_LIMIT,
} from "./presets.js";
export { retrievalPolicySchema, scoreConfigSchema, sectionRuleSchema } from "./policy-schema.js";
export { type AskRequest, retrieve, retrieveUnder } from "./retrieve.js";
export { PolicyKeys } from "./ask-relevance.js";
export { turnText, writeBack } from "./write-back.js";
export { policyEmbeddingModel, rankingConfigs, usesEmbedding } from "./policy-backends.js";
export { type PlannedSection, sectionPlan } from "./section-plan.js";
export { HYBRID_DEFAULTS } from "./relevance/hybrid.js";
export {
  defaultStopwords,
  needsEmbedding,
  RELEVANCE_BACKENDS,
  type RelevanceBackend,
  type RelevanceInput,
  type RelevanceScores,
} from "./relevance/index.js";
export { BM25_B, BM25_K1 } from "./relevance/bm25.js";
export { type MemoryStore, type OpenStoreOptions, openStore } from "./store/store.js";
export { LEGACY_SCOPE, SCHEMA_VERSION } from "./store/schema.js";
export { SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4 } from "./store/migrations.js";
export { SCHEMA_V5, vectorToBlob } from "./store/schema.js";

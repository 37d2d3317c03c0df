/** Embedding models behind one interface, chosen by id, every vector through one persistent cache. */
export { DEFAULT_CACHE_FILE, EmbeddingCache } from "./cache.js";
export { type CachedOptions, cachedEmbedder } from "./cached.js";
export { openAiEmbedder, type OpenAiOptions } from "./openai.js";
export { createEmbedder, DEFAULT_EMBEDDING_MODEL, type EmbedderSettings, IN_PROCESS_MODELS, type ModelId, parseModelId } from "./registry.js";
export { defaultUseLiteThreads, loadUseLite, USE_LITE_MODEL } from "./use-lite.js";

/**
 * A run's embeddings: each model the run's policies rank by, made at the first text the persistent
 * cache does not hold (an in-process encoder is loaded once, a server is reached once; a warm cache
 * needs neither), every text through that cache.
 */
import { cachedEmbedder, createEmbedder, EmbeddingCache, type EmbedderSettings } from "../../model/embedding/index.js";
import type { Embedder } from "../../model/embedder.js";
import type { EmbedTexts } from "./run.js";

export interface EmbeddingServiceOptions {
  /** The cache file (see DEFAULT_CACHE_FILE). */
  cacheFile: string;
  /** The server of a model served elsewhere, and its timeout (the experiment's `embedding`). */
  url?: string;
  timeoutMs?: number;
  /** Told as texts missing from the cache are embedded. */
  onProgress?: (model: string, done: number, total: number) => void;
  /** Makes the embedder of a model id; the registry's by default (tests pass doubles). */
  create?: (settings: EmbedderSettings) => Promise<Embedder>;
}

export interface EmbeddingService {
  embed: EmbedTexts;
  /** Ends the embedders (an in-process encoder's threads) and closes the cache. */
  close(): Promise<void>;
}

export function embeddingService(options: EmbeddingServiceOptions): EmbeddingService {
  let cache: EmbeddingCache | undefined;
  const embedders = new Map<string, Promise<Embedder>>();
  const create = options.create ?? createEmbedder;
  const embedderOf = (model: string) => {
    let made = embedders.get(model);
    if (made === undefined) {
      cache ??= EmbeddingCache.open(options.cacheFile);
      const store = cache;
      const settings: EmbedderSettings = { model, ...(options.url === undefined ? {} : { url: options.url }), ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) };
      made = Promise.resolve(cachedEmbedder(lazyEmbedder(model, () => create(settings)), store, { onProgress: (done, total) => options.onProgress?.(model, done, total) }));
      embedders.set(model, made);
    }
    return made;
  };
  return {
    async embed(model, texts) {
      return (await embedderOf(model)).embed(texts);
    },
    async close() {
      const made = [...embedders.values()];
      // Embedders hold the closed cache; a later call makes them again over a reopened one.
      embedders.clear();
      await Promise.allSettled(made.map(async (embedder) => (await embedder).close?.()));
      cache?.close();
      cache = undefined;
    },
  };
}

/** An embedder made at its first call, so that a cache which holds every text never loads the model nor reaches its server. */
function lazyEmbedder(model: string, make: () => Promise<Embedder>): Embedder {
  let inner: Promise<Embedder> | undefined;
  return {
    model,
    embed: async (texts) => (await (inner ??= make())).embed(texts),
    close: async () => {
      if (inner !== undefined) await (await inner).close?.();
    },
  };
}

/**
 * An embedder in front of the cache: texts the cache holds for the model are read, the others
 * are embedded in batches and stored, and every vector returned is the stored one, so whoever
 * embedded a text first (another run, another process) decides its vector for everyone.
 */
import type { Embedder } from "../embedder.js";
import type { EmbeddingCache } from "./cache.js";

export interface CachedOptions {
  /** Texts sent to the model per call (a server's request limit, an encoder's batch). */
  batchSize?: number;
  /** Told after each batch: how many of this call's missing texts are embedded, of how many. */
  onProgress?: (done: number, total: number) => void;
}

export function cachedEmbedder(inner: Embedder, cache: EmbeddingCache, options: CachedOptions = {}): Embedder {
  const batchSize = options.batchSize ?? 256;
  return {
    model: inner.model,
    ...(inner.close === undefined ? {} : { close: () => inner.close!() }),
    async embed(texts) {
      const vectors = cache.get(inner.model, texts);
      // Shortest first, so that each batch holds texts of about one length: an encoder batches texts
      // of one token length (use-lite) or pads a batch to its longest, and a batch of one length
      // costs a third less per text than texts of mixed lengths. Each text's vector is its own.
      const missing = [...new Set(texts.filter((_, i) => vectors[i] === undefined))].sort((a, b) => a.length - b.length);
      if (missing.length > 0) options.onProgress?.(0, missing.length);
      for (let start = 0; start < missing.length; start += batchSize) {
        const batch = missing.slice(start, start + batchSize);
        const made = await inner.embed(batch);
        if (made.length !== batch.length) throw new Error(`"${inner.model}" gave ${made.length} vectors for ${batch.length} texts`);
        cache.put(inner.model, batch.map((text, i) => ({ text, vector: made[i]! })));
        options.onProgress?.(Math.min(start + batchSize, missing.length), missing.length);
      }
      if (missing.length === 0) return vectors as Float32Array[];
      // Read back what is stored: a vector another process stored first wins over ours.
      const stored = cache.get(inner.model, texts);
      return stored.map((vector, i) => {
        if (vector === undefined) throw new Error(`the embedding cache lost the vector of text ${i} for "${inner.model}"`);
        return vector;
      });
    },
  };
}

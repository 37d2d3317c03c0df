/**
 * The embedder over a model client (Ollama /api/embed) that turns memory and query text into the
 * vectors the embedding relevance backend ranks by; vectors carry the model id so the store can
 * refuse a mismatch.
 */
import { DEFAULT_EMBED_MODEL } from "./options.js";
import type { ModelClient, SamplingOptions } from "./types.js";

export interface Embedder {
  /** The id vectors are recorded under, such as `use-lite` or `ollama:nomic-embed-text` (see embedding/registry.ts). */
  model: string;
  /** One vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Frees what the embedder holds (an in-process encoder's threads); absent when it holds nothing. */
  close?(): Promise<void>;
}

/** An embedder over `client` (Ollama's /api/embed, or its recordings), its vectors recorded as `ollama:<model>`. */
export function modelEmbedder(client: ModelClient, model = DEFAULT_EMBED_MODEL, options?: SamplingOptions): Embedder {
  return {
    model: `ollama:${model}`,
    async embed(texts) {
      if (texts.length === 0) return [];
      const reply = await client.embed({ model, input: [...texts], ...(options ? { options } : {}) });
      return reply.embeddings.map((vector) => Float32Array.from(vector));
    },
  };
}

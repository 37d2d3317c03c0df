import { afterEach, describe, expect, it } from "vitest";
import type { Embedder } from "../../../src/model/embedder.js";
import { EmbeddingCache } from "../../../src/model/embedding/cache.js";
import { cachedEmbedder } from "../../../src/model/embedding/cached.js";
import { useTempDir } from "../../harness/temp-files.js";

const temp = useTempDir("recollect-cached-embedder-");
let files = 0;
const open: EmbeddingCache[] = [];
afterEach(() => {
  for (const cache of open.splice(0)) cache.close();
});
function freshCache(): EmbeddingCache {
  const cache = EmbeddingCache.open(temp.path(`cache-${++files}.db`));
  open.push(cache);
  return cache;
}

/** A test embedder: each text's vector is [its length, its call's number]; it records every call. */
function recordingEmbedder(model = "test:model", during?: (batch: readonly string[]) => void) {
  const calls: string[][] = [];
  const inner: Embedder = {
    model,
    async embed(texts) {
      calls.push([...texts]);
      during?.(texts);
      return texts.map((text) => Float32Array.from([text.length, calls.length]));
    },
  };
  return { inner, calls };
}

const plain = (vectors: Float32Array[]) => vectors.map((v) => Array.from(v));

describe("cachedEmbedder", () => {
  it("has the inner embedder's model id", () => {
    expect(cachedEmbedder(recordingEmbedder("ollama:x").inner, freshCache()).model).toBe("ollama:x");
  });

  it("sends only the texts the cache lacks, each once, in batches of batchSize, and stores them", async () => {
    const cache = freshCache();
    cache.put("test:model", [{ text: "bb", vector: Float32Array.from([-1, -1]) }]);
    const { inner, calls } = recordingEmbedder();
    const embedder = cachedEmbedder(inner, cache, { batchSize: 2 });
    const vectors = await embedder.embed(["a", "bb", "ccc", "a", "dddd", "eeeee", "ccc", "ffffff"]);
    expect(calls).toEqual([["a", "ccc"], ["dddd", "eeeee"], ["ffffff"]]);
    expect(plain(vectors)).toEqual([[1, 1], [-1, -1], [3, 1], [1, 1], [4, 2], [5, 2], [3, 1], [6, 3]]);
    expect(cache.count("test:model")).toBe(6);
    expect(Array.from(cache.get("test:model", ["eeeee"])[0]!)).toEqual([5, 2]);
  });

  it("sends the missing texts shortest first (ties in order of appearance), so each batch holds texts of about one length", async () => {
    const { inner, calls } = recordingEmbedder();
    const texts = ["a long text", "mid text", "x", "a mid one", "yy", "zz", "the longest text"];
    const vectors = await cachedEmbedder(inner, freshCache(), { batchSize: 3 }).embed(texts);
    expect(calls).toEqual([["x", "yy", "zz"], ["mid text", "a mid one", "a long text"], ["the longest text"]]);
    // Each vector still goes to its own text, in the caller's order.
    expect(vectors.map((v) => v[0])).toEqual(texts.map((t) => t.length));
  });

  it("batches 256 texts a call unless told", async () => {
    const { inner, calls } = recordingEmbedder();
    const texts = Array.from({ length: 520 }, (_, i) => `text ${i}`);
    await cachedEmbedder(inner, freshCache()).embed(texts);
    expect(calls.map((c) => c.length)).toEqual([256, 256, 8]);
  });

  it("calls the inner embedder not at all when the cache holds every text, and returns the stored vectors", async () => {
    const cache = freshCache();
    const first = recordingEmbedder();
    await cachedEmbedder(first.inner, cache).embed(["tea", "coffee"]);
    const second = recordingEmbedder();
    const vectors = await cachedEmbedder(second.inner, cache).embed(["coffee", "tea", "coffee"]);
    expect(second.calls).toEqual([]);
    expect(plain(vectors)).toEqual([[6, 1], [3, 1], [6, 1]]);
    expect(await cachedEmbedder(second.inner, cache).embed([])).toEqual([]);
    expect(second.calls).toEqual([]);
  });

  it("returns the stored vector, not its own, for a text another process stored while it embedded", async () => {
    const cache = freshCache();
    // Another connection to the same file, as another process would hold.
    const other = EmbeddingCache.open(cache.file);
    open.push(other);
    const { inner } = recordingEmbedder("test:model", (batch) => {
      if (batch.includes("tea")) other.put("test:model", [{ text: "tea", vector: Float32Array.from([42, 42]) }]);
    });
    const vectors = await cachedEmbedder(inner, cache).embed(["tea", "milk"]);
    expect(plain(vectors)).toEqual([[42, 42], [4, 1]]);
    expect(plain(other.get("test:model", ["tea", "milk"]) as Float32Array[])).toEqual([[42, 42], [4, 1]]);
  });

  it("keeps models apart: a text cached under one model is embedded again for another", async () => {
    const cache = freshCache();
    await cachedEmbedder(recordingEmbedder("model:a").inner, cache).embed(["tea"]);
    const b = recordingEmbedder("model:b");
    await cachedEmbedder(b.inner, cache).embed(["tea"]);
    expect(b.calls).toEqual([["tea"]]);
  });

  it("tells progress after each batch, over this call's missing texts, and nothing when none are missing", async () => {
    const cache = freshCache();
    cache.put("test:model", [{ text: "cached", vector: Float32Array.from([0, 0]) }]);
    const told: [number, number][] = [];
    const embedder = cachedEmbedder(recordingEmbedder().inner, cache, { batchSize: 2, onProgress: (done, total) => told.push([done, total]) });
    await embedder.embed(["a", "cached", "b", "c", "a", "d", "e"]);
    expect(told).toEqual([
      [0, 5],
      [2, 5],
      [4, 5],
      [5, 5],
    ]);
    told.length = 0;
    await embedder.embed(["a", "cached"]);
    expect(told).toEqual([]);
  });

  it("stores the batches embedded before a failing one, so a retried run embeds only the rest", async () => {
    const cache = freshCache();
    let calls = 0;
    const failing: Embedder = {
      model: "test:model",
      async embed(texts) {
        if (++calls === 2) throw new Error("the server went away");
        return texts.map(() => Float32Array.from([calls]));
      },
    };
    await expect(cachedEmbedder(failing, cache, { batchSize: 1 }).embed(["a", "b", "c"])).rejects.toThrow("the server went away");
    expect(cache.get("test:model", ["a", "b", "c"]).map((v) => v?.[0])).toEqual([1, undefined, undefined]);
  });
});

import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddingService } from "../../../src/harness/runner/embeddings.js";
import type { Embedder } from "../../../src/model/embedder.js";
import { EmbeddingCache, type EmbedderSettings } from "../../../src/model/embedding/index.js";
import { type OpenAiDouble, openAiDoubleEmbedding, startOpenAiDouble } from "../../model/openai-test-double.js";
import { useTempDir } from "../temp-files.js";

const temp = useTempDir("recollect-embedding-service-");
let files = 0;
const freshFile = () => temp.path(`run-${++files}/embeddings.db`);

/** A `create` that records every settings it is given; its embedders give [text length, `mark`]. */
function recordingCreate(mark = 1) {
  const made: EmbedderSettings[] = [];
  const embedded: { model: string; texts: string[] }[] = [];
  const create = async (settings: EmbedderSettings): Promise<Embedder> => {
    made.push(settings);
    return {
      model: settings.model,
      async embed(texts) {
        embedded.push({ model: settings.model, texts: [...texts] });
        return texts.map((t) => Float32Array.from([t.length, mark]));
      },
    };
  };
  return { create, made, embedded };
}
const plain = (vectors: Float32Array[]) => vectors.map((v) => Array.from(v));

describe("embeddingService", () => {
  it("makes nothing until asked: no embedder, no cache file", async () => {
    const file = freshFile();
    const { create, made } = recordingCreate();
    const service = embeddingService({ cacheFile: file, create });
    expect(made).toEqual([]);
    expect(existsSync(file)).toBe(false);
    await service.close();
    expect(existsSync(file)).toBe(false);
  });

  it("makes one embedder per model, on its first use, with the url and timeout", async () => {
    const { create, made } = recordingCreate();
    const service = embeddingService({ cacheFile: freshFile(), url: "http://127.0.0.1:1/v1", timeoutMs: 1234, create });
    await Promise.all([service.embed("ollama:a", ["x"]), service.embed("ollama:a", ["y"])]);
    await service.embed("ollama:a", ["z"]);
    expect(made).toEqual([{ model: "ollama:a", url: "http://127.0.0.1:1/v1", timeoutMs: 1234 }]);
    await service.embed("openai:b", ["x"]);
    expect(made.map((s) => s.model)).toEqual(["ollama:a", "openai:b"]);
    await service.close();
  });

  it("passes neither url nor timeout when the experiment gives none", async () => {
    const { create, made } = recordingCreate();
    const service = embeddingService({ cacheFile: freshFile(), create });
    await service.embed("use-lite", ["x"]);
    expect(made).toEqual([{ model: "use-lite" }]);
    await service.close();
  });

  it("goes through the cache file: what one run embedded, the next reads, embedding only what is new", async () => {
    const file = freshFile();
    const first = recordingCreate(1);
    const run1 = embeddingService({ cacheFile: file, create: first.create });
    expect(plain(await run1.embed("m", ["tea", "coffee", "tea"]))).toEqual([[3, 1], [6, 1], [3, 1]]);
    expect(first.embedded).toEqual([{ model: "m", texts: ["tea", "coffee"] }]);
    await run1.close();

    const stored = EmbeddingCache.open(file);
    expect(plain(stored.get("m", ["tea", "coffee"]) as Float32Array[])).toEqual([[3, 1], [6, 1]]);
    stored.close();

    const second = recordingCreate(2);
    const run2 = embeddingService({ cacheFile: file, create: second.create });
    expect(plain(await run2.embed("m", ["coffee", "milk", "tea"]))).toEqual([[6, 1], [4, 2], [3, 1]]);
    expect(second.embedded).toEqual([{ model: "m", texts: ["milk"] }]);
    await run2.close();
  });

  it("tells progress per model as missing texts are embedded", async () => {
    const { create } = recordingCreate();
    const told: [string, number, number][] = [];
    const service = embeddingService({ cacheFile: freshFile(), create, onProgress: (model, done, total) => told.push([model, done, total]) });
    await service.embed("m", ["a", "b"]);
    await service.embed("m", ["a"]);
    await service.embed("n", ["a"]);
    expect(told).toEqual([
      ["m", 0, 2],
      ["m", 2, 2],
      ["n", 0, 1],
      ["n", 1, 1],
    ]);
    await service.close();
  });

  it("close() closes the cache: its write-ahead log is folded into the file and removed", async () => {
    const file = freshFile();
    const service = embeddingService({ cacheFile: file, create: recordingCreate().create });
    await service.embed("m", ["tea"]);
    expect(existsSync(`${file}-wal`)).toBe(true);
    await service.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    // A second close is harmless.
    await service.close();
  });

  it("refuses an unknown model id with the registry's message, when the default registry makes embedders", async () => {
    const service = embeddingService({ cacheFile: freshFile() });
    await expect(service.embed("word2vec", ["x"])).rejects.toThrow(/^unknown embedding model "word2vec"/);
    await service.close();
  });

  describe("with the registry's embedders (no create given)", () => {
    let server: OpenAiDouble;
    beforeAll(async () => {
      server = await startOpenAiDouble();
    });
    afterAll(() => server.stop());

    it("reaches an OpenAI-compatible server at the url, once per text across runs", async () => {
      const file = freshFile();
      for (let run = 0; run < 2; run++) {
        const service = embeddingService({ cacheFile: file, url: server.url });
        const vectors = await service.embed("openai:text-embedding-3-small", ["tea", "coffee"]);
        expect(plain(vectors)).toEqual(["tea", "coffee"].map((t) => Array.from(Float32Array.from(openAiDoubleEmbedding(t)))));
        await service.close();
      }
      expect(server.requests.map((r) => r.body.input)).toEqual([["tea", "coffee"]]);
    });

    it("gives the server the timeout", async () => {
      server.script({ type: "hang" });
      const service = embeddingService({ cacheFile: freshFile(), url: server.url, timeoutMs: 100 });
      await expect(service.embed("openai:text-embedding-3-small", ["slow"])).rejects.toThrow(`the server at ${server.url} did not answer the embedding call to text-embedding-3-small within 100 ms`);
      await service.close();
    });
  });
});

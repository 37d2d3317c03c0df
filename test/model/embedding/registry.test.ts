import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbedder, DEFAULT_EMBEDDING_MODEL, IN_PROCESS_MODELS, parseModelId } from "../../../src/model/embedding/registry.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { doubleEmbedding, type OllamaDouble, startOllamaDouble } from "../ollama-test-double.js";
import { type OpenAiDouble, openAiDoubleEmbedding, startOpenAiDouble } from "../openai-test-double.js";

const UNKNOWN = (id: string) =>
  `unknown embedding model "${id}": use use-lite (in this process, offline), ollama:<model> (an Ollama server) or openai:<model> (an OpenAI-compatible server)`;

describe("parseModelId", () => {
  it("names the in-process encoder by its id, the default", () => {
    expect(DEFAULT_EMBEDDING_MODEL).toBe("use-lite");
    expect(Object.keys(IN_PROCESS_MODELS)).toEqual(["use-lite"]);
    expect(parseModelId("use-lite")).toEqual({ provider: "in-process", id: "use-lite" });
  });

  it("reads ollama:<model> and openai:<model>, the model being everything after the first colon", () => {
    expect(parseModelId("ollama:nomic-embed-text")).toEqual({ provider: "ollama", id: "ollama:nomic-embed-text", name: "nomic-embed-text" });
    expect(parseModelId("ollama:nomic-embed-text:latest")).toEqual({ provider: "ollama", id: "ollama:nomic-embed-text:latest", name: "nomic-embed-text:latest" });
    expect(parseModelId("openai:text-embedding-3-small")).toEqual({ provider: "openai", id: "openai:text-embedding-3-small", name: "text-embedding-3-small" });
  });

  it.each(["word2vec", "nomic-embed-text", "ollama", "ollama:", "openai:", "OLLAMA:x", "hf:all-MiniLM-L6-v2", "", " use-lite"])(
    "refuses %j with one RecollectError listing the ids there are",
    (id) => {
      let error: unknown;
      try {
        parseModelId(id);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RecollectError);
      expect((error as RecollectError).message).toBe(UNKNOWN(id));
    },
  );
});

describe("createEmbedder", () => {
  let ollama: OllamaDouble;
  let openai: OpenAiDouble;
  beforeAll(async () => {
    [ollama, openai] = await Promise.all([startOllamaDouble(), startOpenAiDouble()]);
  });
  afterAll(() => Promise.all([ollama.stop(), openai.stop()]));

  it("use-lite: the in-process encoder, under its id", async () => {
    const embedder = await createEmbedder({ model: "use-lite", env: {} });
    expect(embedder.model).toBe("use-lite");
    const [vector] = await embedder.embed(["hello"]);
    expect(vector).toHaveLength(512);
  });

  it("ollama:<model>: the server at `url`, under ollama:<model>", async () => {
    const embedder = await createEmbedder({ model: "ollama:nomic-embed-text", url: ollama.host, env: {} });
    expect(embedder.model).toBe("ollama:nomic-embed-text");
    const [vector] = await embedder.embed(["hello"]);
    expect(Array.from(vector!)).toEqual(Array.from(Float32Array.from(doubleEmbedding("hello"))));
    expect(ollama.requests.at(-1)).toMatchObject({ route: "embed", body: { model: "nomic-embed-text", input: ["hello"] } });
  });

  it("ollama:<model> without a url: the server OLLAMA_HOST names", async () => {
    const before = ollama.requests.length;
    const embedder = await createEmbedder({ model: "ollama:nomic-embed-text", env: { OLLAMA_HOST: ollama.host } });
    await embedder.embed(["from the environment"]);
    expect(ollama.requests.length).toBe(before + 1);
  });

  it("openai:<model>: the server at `url`, under openai:<model>, with OPENAI_API_KEY as the bearer key", async () => {
    const embedder = await createEmbedder({ model: "openai:text-embedding-3-small", url: openai.url, env: { OPENAI_API_KEY: "sk-from-env" } });
    expect(embedder.model).toBe("openai:text-embedding-3-small");
    const [vector] = await embedder.embed(["hello"]);
    expect(Array.from(vector!)).toEqual(Array.from(Float32Array.from(openAiDoubleEmbedding("hello"))));
    expect(openai.requests.at(-1)!.headers.authorization).toBe("Bearer sk-from-env");
    expect(openai.requests.at(-1)!.body.model).toBe("text-embedding-3-small");
  });

  it("openai:<model> without a url: the base URL OPENAI_BASE_URL names, and no key when none is set", async () => {
    const embedder = await createEmbedder({ model: "openai:text-embedding-3-small", env: { OPENAI_BASE_URL: openai.url } });
    await embedder.embed(["from the environment"]);
    expect(openai.requests.at(-1)!.body.input).toEqual(["from the environment"]);
    expect(openai.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it("openai:<model> with a timeout: the timeout reaches the client", async () => {
    openai.script({ type: "hang" });
    const embedder = await createEmbedder({ model: "openai:text-embedding-3-small", url: openai.url, timeoutMs: 120, env: {} });
    await expect(embedder.embed(["x"])).rejects.toThrow(`within 120 ms`);
  });

  it("openai:<model> with no url anywhere: one RecollectError saying where to give one", async () => {
    for (const env of [{}, { OPENAI_BASE_URL: "" }]) {
      const error = await createEmbedder({ model: "openai:text-embedding-3-small", env }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RecollectError);
      expect((error as RecollectError).message).toBe(
        `embedding model "openai:text-embedding-3-small" needs a server: give its base URL (embedding.url in the experiment, --embed-url in the chat) or set OPENAI_BASE_URL`,
      );
    }
  });

  it("an unknown id: the same message as parseModelId's", async () => {
    await expect(createEmbedder({ model: "word2vec", env: {} })).rejects.toThrow(new RecollectError(UNKNOWN("word2vec")));
  });
});

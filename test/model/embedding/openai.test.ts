import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openAiEmbedder, type OpenAiOptions } from "../../../src/model/embedding/openai.js";
import { ModelError } from "../../../src/model/errors.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { closedPort } from "../ollama-test-double.js";
import { type OpenAiDouble, openAiDoubleEmbedding, startOpenAiDouble } from "../openai-test-double.js";

const MODEL = "text-embedding-3-small";
let server: OpenAiDouble;
beforeAll(async () => {
  server = await startOpenAiDouble();
});
afterAll(() => server.stop());
beforeEach(() => {
  server.requests.length = 0;
});

/** Backoffs are recorded, not waited for. */
function embedder(options: Partial<OpenAiOptions> = {}) {
  const slept: number[] = [];
  const made = openAiEmbedder({ url: server.url, model: MODEL, sleep: async (ms) => void slept.push(ms), ...options });
  return { embedder: made, slept };
}

/** The error `promise` fails with; it must be a ModelError (a RecollectError) that names `url`. */
async function failure(promise: Promise<unknown>, url = server.url): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  expect(error).toBeInstanceOf(RecollectError);
  const { message, host } = error as ModelError;
  expect(message).toContain(url);
  expect(host).toBe(url);
  expect(message).not.toMatch(/\n/);
  return error as ModelError;
}

const asFloats = (text: string) => Array.from(Float32Array.from(openAiDoubleEmbedding(text)));

describe("openAiEmbedder", () => {
  it("posts {model, input, encoding_format: float} to {url}/embeddings and returns Float32Arrays in input order, under openai:<model>", async () => {
    const { embedder: e } = embedder();
    expect(e.model).toBe(`openai:${MODEL}`);
    const vectors = await e.embed(["first", "second", "third"]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: "POST", url: "/v1/embeddings", body: { model: MODEL, input: ["first", "second", "third"], encoding_format: "float" } });
    expect(server.requests[0]!.headers["content-type"]).toBe("application/json");
    expect(vectors.every((v) => v instanceof Float32Array)).toBe(true);
    expect(vectors.map((v) => Array.from(v))).toEqual(["first", "second", "third"].map(asFloats));
  });

  it("puts each embedding at its input's index when the server lists them in reverse", async () => {
    server.script({ type: "reply", reverse: true });
    const vectors = await embedder().embedder.embed(["a", "b", "c", "d"]);
    expect(vectors.map((v) => Array.from(v))).toEqual(["a", "b", "c", "d"].map(asFloats));
  });

  it("accepts a base URL with a trailing slash", async () => {
    const vectors = await embedder({ url: `${server.url}/` }).embedder.embed(["x"]);
    expect(Array.from(vectors[0]!)).toEqual(asFloats("x"));
    expect(server.requests[0]!.url).toBe("/v1/embeddings");
  });

  it("sends the key as a bearer token when given, and no authorization header otherwise", async () => {
    await embedder({ apiKey: "sk-test-123" }).embedder.embed(["x"]);
    await embedder().embedder.embed(["x"]);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(["Bearer sk-test-123", undefined]);
  });

  it("makes no request for no texts", async () => {
    expect(await embedder().embedder.embed([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  describe("fails with one ModelError naming the URL", () => {
    it("401 and 403: refused, saying to set OPENAI_API_KEY, without retrying", async () => {
      for (const status of [401, 403]) {
        server.requests.length = 0;
        server.script({ type: "status", status, message: "Incorrect API key provided" });
        const { embedder: e, slept } = embedder();
        const error = await failure(e.embed(["x"]));
        expect(error.message).toBe(`the server at ${server.url} refused the request with HTTP ${status}: set OPENAI_API_KEY to a key it accepts`);
        expect(server.requests).toHaveLength(1);
        expect(slept).toEqual([]);
      }
    });

    it("404: the model is missing, naming it and where the server lists its models", async () => {
      const error = await failure(embedder({ model: "no-such-model" }).embedder.embed(["x"]));
      expect(error.reason).toBe("model-missing");
      expect(error.message).toBe(`model no-such-model not found at ${server.url}: name a model the server lists at ${server.url}/models`);
      expect(server.requests).toHaveLength(1);
    });

    it("another 4xx that says the model does not exist: the model is missing too", async () => {
      server.script({ type: "status", status: 400, message: "The model `x` does not exist" });
      const error = await failure(embedder().embedder.embed(["x"]));
      expect(error.reason).toBe("model-missing");
    });

    it("500: retried with doubling backoff, then failed, quoting the body", async () => {
      server.script(...Array.from({ length: 3 }, () => ({ type: "status" as const, status: 500, message: "CUDA out of memory" })));
      const { embedder: e, slept } = embedder({ retries: 2, backoffMs: 10 });
      const error = await failure(e.embed(["x"]));
      expect(server.requests).toHaveLength(3);
      expect(slept).toEqual([10, 20]);
      expect(error.reason).toBe("server-error");
      expect(error.message).toMatch(new RegExp(`^the server at ${escape(server.url)} failed on the embedding call to ${MODEL} with HTTP 500: .*CUDA out of memory`));
    });

    it("500 once, then an answer: the retry's answer is returned", async () => {
      server.script({ type: "status", status: 503 });
      const { embedder: e, slept } = embedder();
      const vectors = await e.embed(["x"]);
      expect(Array.from(vectors[0]!)).toEqual(asFloats("x"));
      expect(server.requests).toHaveLength(2);
      expect(slept).toEqual([250]);
    });

    it("a 4xx that is not about the key or the model: failed at once, not retried", async () => {
      server.script({ type: "status", status: 400, message: "input is too long" });
      const { embedder: e, slept } = embedder();
      const error = await failure(e.embed(["x"]));
      expect(error.reason).toBe("bad-request");
      expect(error.message).toContain("HTTP 400: ");
      expect(error.message).toContain("input is too long");
      expect([server.requests.length, slept.length]).toEqual([1, 0]);
    });

    it("a refused connection: retried, then the one-line message that no server answers", async () => {
      const url = `http://127.0.0.1:${await closedPort()}/v1`;
      const { embedder: e, slept } = embedder({ url, retries: 1, backoffMs: 1 });
      const error = await failure(e.embed(["x"]), url);
      expect(error.reason).toBe("server-down");
      expect(error.message).toBe(`no OpenAI-compatible server answers at ${url}: start it, or check the embedding url`);
      expect(slept).toEqual([1]);
    });

    it("no answer within the timeout: timed out, naming the model and the time, not retried", async () => {
      server.script({ type: "hang" });
      const { embedder: e, slept } = embedder({ timeoutMs: 150 });
      const started = Date.now();
      const error = await failure(e.embed(["x"]));
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(error.reason).toBe("timeout");
      expect(error.message).toBe(
        `the server at ${server.url} did not answer the embedding call to ${MODEL} within 150 ms: check the server, or raise the timeout`,
      );
      expect([server.requests.length, slept.length]).toEqual([1, 0]);
    });

    it("a body that stops midway within the timeout: timed out too, rather than waiting for ever", async () => {
      server.script({ type: "stall" });
      const error = await failure(embedder({ timeoutMs: 150 }).embedder.embed(["x"]));
      expect(error.reason).toBe("timeout");
    }, 5_000);

    it.each([
      ["not-json", "the body is not JSON"],
      ["wrong-shape", "unexpected shape at data"],
      ["one-short", "1 embeddings for 2 inputs"],
      ["repeated-index", "input index 0 is out of range or repeated"],
      ["ragged", "embeddings of 7 and 8 dimensions in one reply"],
      ["empty-vector", "embeddings of 0 and 8 dimensions in one reply"],
    ] as const)("a malformed reply (%s), saying what is wrong, not retried", async (type, what) => {
      server.script({ type });
      const error = await failure(embedder().embedder.embed(["x", "y"]));
      expect(error.reason).toBe("malformed");
      expect(error.message).toBe(`the server at ${server.url} sent a malformed embedding reply for ${MODEL} (${what}): check that it speaks the OpenAI embeddings API`);
      expect(server.requests).toHaveLength(1);
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

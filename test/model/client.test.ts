import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OllamaClient } from "../../src/model/client.js";
import { ModelError } from "../../src/model/errors.js";
import { CLIENT_DEFAULTS, type ClientOptions } from "../../src/model/options.js";
import { RecollectError } from "../../src/shared/errors.js";
import { closedPort, doubleEmbedding, startOllamaDouble, type OllamaDouble } from "./ollama-test-double.js";

const MODEL = "gemma4:e2b";
const ask = { model: MODEL, messages: [{ role: "user" as const, content: "What did I eat?" }], options: { seed: 3 } };

let double: OllamaDouble;
const sleeps: number[] = [];
const noSleep = async (ms: number) => void sleeps.push(ms);

function client(options: ClientOptions = {}): OllamaClient {
  return new OllamaClient({ host: double.host, sleep: noSleep, ...options });
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RecollectError);
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

beforeEach(async () => {
  double = await startOllamaDouble({ answer: () => "You had soup." });
  sleeps.length = 0;
});
afterEach(() => double.stop());

describe("chat", () => {
  it("assembles a streamed reply and sends the seed", async () => {
    double.script("chat", { type: "reply", chunks: 4 });
    const reply = await client().chat(ask);
    expect(reply).toEqual({ content: "You had soup.", model: MODEL });
    expect(double.requests[0]!.body).toMatchObject({ stream: true, options: { seed: 3 } });
  });

  it("names the model to pull when the server does not have it", async () => {
    const error = await failure(client().chat({ ...ask, model: "gemma9:zz" }));
    expect(error.reason).toBe("model-missing");
    expect(error.message).toBe(`model gemma9:zz not found on ${double.host}: run \`ollama pull gemma9:zz\``);
    expect(double.requests).toHaveLength(1);
  });

  it("times out on a server that never answers, naming host, model and timeout", async () => {
    double.script("chat", { type: "hang" });
    const error = await failure(client({ timeoutMs: 200 }).chat(ask));
    expect(error.reason).toBe("timeout");
    expect(error.message).toContain(double.host);
    expect(error.message).toContain(`model ${MODEL}`);
    expect(error.message).toContain("200 ms");
    expect(double.requests).toHaveLength(1);
  });

  it("times out on a stream that stalls midway, without retrying", async () => {
    double.script("chat", { type: "stall", afterChunks: 1 });
    const error = await failure(client({ timeoutMs: 200 }).chat(ask));
    expect(error.reason).toBe("timeout");
    expect(double.requests).toHaveLength(1);
  });

  it("reports a streamed line that is not JSON as malformed", async () => {
    double.script("chat", { type: "malformed" });
    const error = await failure(client().chat(ask));
    expect(error.reason).toBe("malformed");
    expect(error.message).toContain(`Ollama at ${double.host} sent a malformed response for model ${MODEL}`);
    expect(error.message).toContain("not JSON");
  });

  it("reports a stream whose connection drops midway as cut off, after bounded retries", async () => {
    double.script("chat", { type: "cut" }, { type: "cut" }, { type: "cut" });
    const error = await failure(client({ retries: 2 }).chat(ask));
    expect(error.reason).toBe("stream-cut");
    expect(error.message).toContain(`the reply from Ollama at ${double.host} for model ${MODEL} was cut off midway`);
    expect(double.requests).toHaveLength(3);
  });

  it("reports a stream that ends without `done` as cut off", async () => {
    double.script("chat", { type: "cut", how: "end" });
    const error = await failure(client({ retries: 0 }).chat(ask));
    expect(error.reason).toBe("stream-cut");
    expect(error.message).toContain("cut off midway");
  });

  it("recovers when a retry after a cut stream succeeds", async () => {
    double.script("chat", { type: "cut" });
    await expect(client().chat(ask)).resolves.toMatchObject({ content: "You had soup." });
    expect(double.requests).toHaveLength(2);
  });

  it("retries a 5xx with doubling backoff, then succeeds", async () => {
    double.script("chat", { type: "status", status: 503 }, { type: "status", status: 500 });
    await expect(client({ backoffMs: 10 }).chat(ask)).resolves.toMatchObject({ content: "You had soup." });
    expect(double.requests).toHaveLength(3);
    expect(sleeps).toEqual([10, 20]);
  });

  it("gives up on a 5xx after the retry budget with the server's message", async () => {
    double.script("chat", ...Array.from({ length: 3 }, () => ({ type: "status" as const, status: 500, error: "runner crashed" })));
    const error = await failure(client({ retries: 2 }).chat(ask));
    expect(error.message).toBe(`Ollama at ${double.host} failed on model ${MODEL} with HTTP 500: runner crashed`);
    expect(double.requests).toHaveLength(3);
  });

  it("does not retry a 4xx", async () => {
    double.script("chat", { type: "status", status: 400, error: "invalid options" });
    const error = await failure(client().chat(ask));
    expect(error.reason).toBe("bad-request");
    expect(double.requests).toHaveLength(1);
  });

  it("retries a connection reset", async () => {
    double.script("chat", { type: "reset" });
    await expect(client().chat(ask)).resolves.toMatchObject({ content: "You had soup." });
    expect(double.requests).toHaveLength(2);
  });
});

describe("reply cap", () => {
  it("is 1 MiB unless configured", () => {
    expect(CLIENT_DEFAULTS.maxReplyBytes).toBe(1024 * 1024);
  });

  it("stops a reply once its pieces pass the cap, naming host, model and cap, without retrying", async () => {
    double.script("chat", { type: "reply", content: "é".repeat(1500), chunks: 3 });
    const error = await failure(client({ maxReplyBytes: 2048 }).chat(ask));
    expect(error.reason).toBe("too-large");
    expect(error.message).toBe(
      `the reply from Ollama at ${double.host} for model ${MODEL} passed the 2 KiB cap and was stopped: ` +
        "the model may be looping; limit its output (num_predict), or raise the cap (--max-reply-bytes)",
    );
    expect(double.requests).toHaveLength(1);
  });

  it("stops one streamed line longer than the default cap before it is parsed", async () => {
    double.script("chat", { type: "reply", content: "x".repeat(1_200_000), chunks: 1 });
    const error = await failure(client().chat(ask));
    expect(error.reason).toBe("too-large");
    expect(error.message).toContain("passed the 1 MiB cap");
  });

  it("accepts a reply just under the cap", async () => {
    double.script("chat", { type: "reply", content: "a".repeat(2000), chunks: 4 });
    expect((await client({ maxReplyBytes: 2000 }).chat(ask)).content).toHaveLength(2000);
  });
});

describe("embed", () => {
  it("returns one vector per input", async () => {
    const reply = await client().embed({ model: "nomic-embed-text", input: ["a", "b"] });
    expect(reply.embeddings).toEqual([doubleEmbedding("a"), doubleEmbedding("b")]);
  });

  it("reports a body that is not JSON as malformed", async () => {
    double.script("embed", { type: "malformed" });
    const error = await failure(client().embed({ model: "nomic-embed-text", input: ["a"] }));
    expect(error.reason).toBe("malformed");
    expect(error.message).toContain("model nomic-embed-text");
    expect(error.message).toContain("not valid JSON");
  });

  it("names the embedding model to pull", async () => {
    const error = await failure(client().embed({ model: "mxbai-embed-large", input: ["a"] }));
    expect(error.message).toContain("run `ollama pull mxbai-embed-large`");
  });
});

describe("server down", () => {
  it("says to start the server, after a small bounded number of connection retries", async () => {
    const port = await closedPort();
    const host = `http://127.0.0.1:${port}`;
    const error = await failure(new OllamaClient({ host, sleep: noSleep, connectRetries: 1 }).chat(ask));
    expect(error.reason).toBe("server-down");
    expect(error.message).toBe(`no Ollama server at ${host}: start it with \`ollama serve\`, or use recorded calls`);
    expect(error.host).toBe(host);
    // What fetch said (the refused connection) stays reachable for whoever diagnoses it.
    expect(error.cause).toBeInstanceOf(Error);
    expect(sleeps).toHaveLength(1);
  });

  it("fails at once on a port fetch refuses to use, such as 9", async () => {
    const error = await failure(new OllamaClient({ host: "http://127.0.0.1:9", sleep: noSleep }).listModels());
    expect(error.message).toBe("no Ollama server at http://127.0.0.1:9: start it with `ollama serve`, or use recorded calls");
    expect(sleeps).toHaveLength(0);
  });

  it("fails the model list the same way", async () => {
    const port = await closedPort();
    const error = await failure(new OllamaClient({ host: `127.0.0.1:${port}`, sleep: noSleep }).listModels());
    expect(error.message).toContain(`no Ollama server at http://127.0.0.1:${port}`);
  });
});

describe("model list", () => {
  it("lists names and digests", async () => {
    const models = await client().listModels();
    expect(models.map((m) => m.name)).toEqual(["gemma4:e2b", "nomic-embed-text:latest"]);
  });

  it("reports a malformed list", async () => {
    double.script("tags", { type: "malformed" });
    const error = await failure(client().listModels());
    expect(error.message).toContain("malformed response for the model list");
  });
});

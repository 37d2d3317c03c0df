import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_NOW, DEMO_QUESTION, demoMemories, runChat } from "../../src/model/chat-command.js";
import { ModelError } from "../../src/model/errors.js";
import { UserError } from "../../src/shared/errors.js";
import { fakeMemory, testPolicy } from "./fake-memory.js";
import { closedPort, startOllamaDouble, type OllamaDouble } from "./ollama-test-double.js";

let double: OllamaDouble;
let dir: string;
const printed: string[] = [];
const print = (text: string) => void printed.push(text);

beforeEach(async () => {
  double = await startOllamaDouble({ answer: () => "SQLite, so it ships as one file." });
  dir = mkdtempSync(join(tmpdir(), "recollect-chat-"));
  printed.length = 0;
});
afterEach(async () => {
  await double.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("runChat", () => {
  it("fails fast with the server-down error when OLLAMA_HOST points at nothing, before opening a store", async () => {
    const host = `http://127.0.0.1:${await closedPort()}`;
    const memory = fakeMemory();
    const error = await runChat({ memory, policy: testPolicy(), seedMemories: true, env: { OLLAMA_HOST: host }, print }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).exitCode).toBe(2);
    expect((error as Error).message).toBe(`no Ollama server at ${host}: start it with \`ollama serve\`, or use recorded calls`);
    expect(memory.calls.opened).toHaveLength(0);
  });

  it("fails fast on OLLAMA_HOST=http://127.0.0.1:9 with the server-down error", async () => {
    const env = { OLLAMA_HOST: "http://127.0.0.1:9" };
    await expect(runChat({ memory: fakeMemory(), policy: testPolicy(), env, print })).rejects.toThrow(
      "no Ollama server at http://127.0.0.1:9: start it with `ollama serve`, or use recorded calls",
    );
  });

  it("prefers the configured host over OLLAMA_HOST", async () => {
    const env = { OLLAMA_HOST: `http://127.0.0.1:${await closedPort()}` };
    const result = await runChat({ memory: fakeMemory(), policy: testPolicy(), host: double.host, env, print });
    expect(result.answer).toBe("SQLite, so it ships as one file.");
  });

  it("names the model to pull when the server lacks it, before any chat call", async () => {
    const error = await runChat({ memory: fakeMemory(), policy: testPolicy(), host: double.host, model: "gemma9:zz", print }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toBe(`model gemma9:zz not found on ${double.host}: run \`ollama pull gemma9:zz\``);
    expect(double.requests.map((r) => r.route)).toEqual(["tags"]);
  });

  it("checks for the embedding model too when the policy ranks by embedding", async () => {
    const error = await runChat({
      memory: fakeMemory(),
      policy: testPolicy("embedding"),
      host: double.host,
      embedModel: "mxbai-embed-large",
      print,
    }).catch((e: unknown) => e);
    expect((error as Error).message).toContain("run `ollama pull mxbai-embed-large`");
  });

  it("preloads the demo memories, asks one question with the sampling seed, prints block and answer, and closes the store", async () => {
    const memory = fakeMemory();
    const result = await runChat({ memory, policy: testPolicy(), seedMemories: true, samplingSeed: 4, host: double.host, print });
    const store = memory.calls.opened[0]!;
    expect(store.path).toBe(":memory:");
    expect(store.tokenizer).toEqual({ tokenizer: "fake" });
    expect(store.closed).toBe(true);
    expect(store.memories.map((m) => m.id)).toContain("demo-db-new");
    expect(memory.calls.retrieve[0]).toMatchObject({ scope: "demo", now: DEMO_NOW, query: { text: DEMO_QUESTION } });
    expect(result.block.text).toContain("moved its storage from Postgres to SQLite");
    expect(result.block.text).not.toContain("stores its data in Postgres");
    const chat = double.requests.find((r) => r.route === "chat")!;
    expect(chat.body).toMatchObject({ model: "gemma4:e2b", options: { seed: 4 } });
    expect(printed.join("\n")).toContain(`question: ${DEMO_QUESTION}`);
    expect(printed.join("\n")).toContain("answer: SQLite, so it ships as one file.");
  });

  it("stores demo memories with embeddings from the embedding model under an embedding policy", async () => {
    const memory = fakeMemory();
    await runChat({ memory, policy: testPolicy("embedding"), seedMemories: true, host: double.host, print });
    const store = memory.calls.opened[0]!;
    const ids = new Set(demoMemories(DEMO_NOW).map((m) => m.id));
    const demo = store.memories.filter((m) => ids.has(m.id));
    expect(demo).toHaveLength(6);
    expect(demo.every((m) => m.embeddingModel === "nomic-embed-text" && m.embedding?.length === 8)).toBe(true);
    expect(memory.calls.retrieve[0]!.query.embedding?.model).toBe("nomic-embed-text");
  });

  it("records a session, then replays it with the server stopped", async () => {
    const file = join(dir, "chat-demo.json");
    const common = { policy: testPolicy(), seedMemories: true, samplingSeed: 1, print };
    const recorded = await runChat({
      ...common,
      memory: fakeMemory(),
      host: double.host,
      recordings: { mode: "record", file, timestamp: () => "2025-01-15T12:00:00.000Z" },
    });
    await double.stop();
    const replayed = await runChat({ ...common, memory: fakeMemory(), host: double.host, recordings: { mode: "replay", file } });
    expect(replayed.answer).toBe(recorded.answer);
  });
});

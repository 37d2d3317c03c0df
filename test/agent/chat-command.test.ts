/**
 * The chat session and runChat through the real memory system (SQLite store, Gemma tokenizer,
 * retrieval, write-back) against the Ollama test double: server checks, the demo, ratings at write
 * time, reflection into the store, and record/replay.
 */
import { existsSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fullPolicy, loadGemmaTokenizer, streamPreset } from "../../src/memory/index.js";
import { ChatSession, DEMO_NOW, DEMO_QUESTION, DEMO_SCOPE, demoMemories, runChat } from "../../src/agent/chat-command.js";
import { OllamaClient } from "../../src/model/client.js";
import { ModelError } from "../../src/model/errors.js";
import { RecollectError } from "../../src/shared/errors.js";
import { useTempDir } from "../harness/temp-files.js";
import { isRatingPrompt } from "../harness/answers/double-answers.js";
import { type ChatBody, closedPort, startOllamaDouble, type OllamaDouble } from "../model/ollama-test-double.js";

const temp = useTempDir("recollect-chat-");
let double: OllamaDouble;
const printed: string[] = [];
const print = (text: string) => void printed.push(text);

/** Ratings name a number; reflection prompts get questions and a cited insight; anything else is the answer. */
function answer(body: ChatBody): string {
  const last = body.messages.at(-1)!.content;
  if (isRatingPrompt(last)) return "Rating: 9";
  if (last.includes("most salient high-level questions")) return "1. Which database does the project use?";
  if (last.includes("high-level insights")) return "1. The project values shipping as one file (because of 1, 2)";
  return "SQLite, so it ships as one file.";
}

beforeEach(async () => {
  double = await startOllamaDouble({ answer });
  printed.length = 0;
});
afterEach(() => double.stop());

const chats = () => double.requests.filter((r) => r.route === "chat").map((r) => r.body as unknown as ChatBody);

describe("runChat", () => {
  it("fails fast with the server-down error when OLLAMA_HOST points at nothing, before opening a store", async () => {
    const host = `http://127.0.0.1:${await closedPort()}`;
    const storePath = temp.path("never.sqlite");
    const error = await runChat({ policy: fullPolicy, seedMemories: true, storePath, env: { OLLAMA_HOST: host }, print }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecollectError);
    expect((error as ModelError).host).toBe(host);
    expect((error as Error).message).toBe(`no Ollama server at ${host}: start it with \`ollama serve\`, or use recorded calls`);
    expect(existsSync(storePath)).toBe(false);
  });

  it("prefers the configured host over OLLAMA_HOST", async () => {
    const env = { OLLAMA_HOST: `http://127.0.0.1:${await closedPort()}` };
    const result = await runChat({ policy: fullPolicy, host: double.host, env, print });
    expect(result.answer).toBe("SQLite, so it ships as one file.");
  });

  it("names the model to pull when the server lacks it, before any chat call", async () => {
    const error = await runChat({ policy: fullPolicy, host: double.host, model: "gemma9:zz", print }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toBe(`model gemma9:zz not found on ${double.host}: run \`ollama pull gemma9:zz\``);
    expect(double.requests.map((r) => r.route)).toEqual(["tags"]);
  });

  it("checks for the embedding model too when the policy ranks by embedding", async () => {
    const error = await runChat({ policy: streamPreset, host: double.host, embedModel: "ollama:mxbai-embed-large", print }).catch((e: unknown) => e);
    expect((error as Error).message).toContain("run `ollama pull mxbai-embed-large`");
  });

  it("preloads the demo memories, rates each through the model, and answers from a block that holds the correction", async () => {
    const result = await runChat({ policy: fullPolicy, seedMemories: true, samplingSeed: 4, host: double.host, print });
    expect(result.answer).toBe("SQLite, so it ships as one file.");
    expect(result.block.text).toContain("moved its storage from Postgres to SQLite");
    expect(result.block.text).not.toContain("stores its data in Postgres");
    expect(result.requestTokens).toBeGreaterThan(0);
    const ratings = chats().filter((c) => isRatingPrompt(c.messages.at(-1)!.content));
    // The six demo memories and the written-back turn.
    expect(ratings).toHaveLength(demoMemories(DEMO_NOW).length + 1);
    expect(chats().every((c) => c.options?.seed === 4)).toBe(true);
    const question = chats().find((c) => c.messages.at(-1)!.content === DEMO_QUESTION)!;
    expect(question.messages[0]!.content).toContain(result.block.text);
    expect(printed.join("\n")).toContain(`question: ${DEMO_QUESTION}`);
    expect(printed.join("\n")).toContain("answer: SQLite, so it ships as one file.");
  });

  it("embeds memories, query and turn under an embedding policy", async () => {
    const result = await runChat({ policy: streamPreset, seedMemories: true, host: double.host, embedModel: "ollama:nomic-embed-text", embeddingCache: temp.path("embed-all.db"), print });
    expect(result.answer).toBe("SQLite, so it ships as one file.");
    const embeds = double.requests.filter((r) => r.route === "embed").map((r) => (r.body.input as string[]).length);
    expect(embeds).toEqual([demoMemories(DEMO_NOW).length, 1, 1]);
  });

  it("records a session, then replays it with the server stopped", async () => {
    const file = temp.path("chat-demo.json");
    const common = { policy: fullPolicy, seedMemories: true, samplingSeed: 1, print };
    const recorded = await runChat({ ...common, host: double.host, recordings: { mode: "record", file, timestamp: () => "2025-01-15T12:00:00.000Z" } });
    await double.stop();
    const replayed = await runChat({ ...common, host: double.host, recordings: { mode: "replay", file } });
    expect(replayed.answer).toBe(recorded.answer);
  });
});

describe("ChatSession", () => {
  it("rates every new memory through the model and, past the threshold, writes a reflection to the store", async () => {
    const client = new OllamaClient({ host: double.host });
    const storePath = temp.path("reflects.sqlite");
    const session = ChatSession.open({
      client,
      tokenizer: await loadGemmaTokenizer(),
      storePath,
      policy: fullPolicy,
      model: "gemma4:e2b",
      scope: DEMO_SCOPE,
      reflectionThreshold: 60,
    });
    try {
      await session.seed(DEMO_NOW);
      // Six demo memories rated 9 each: 54, under the threshold.
      expect(session.memory.importance).toEqual({ rated: 6, fallbacks: 0 });
      expect(session.memory.reflections).toBe(0);
      expect(session.store.current(DEMO_SCOPE, DEMO_NOW).every((m) => m.importance === 9)).toBe(true);

      await session.say("Which database do we use?", DEMO_NOW + 1000);
      // The turn's 9 makes 63: reflection runs once and stores its insight, rated too.
      expect(session.memory.reflections).toBe(1);
      expect(session.memory.insights).toHaveLength(1);
      const [insight] = session.memory.insights;
      const stored = session.store.get(DEMO_SCOPE, insight!.id)!;
      expect(stored).toMatchObject({ kind: "semantic", text: "The project values shipping as one file", importance: 9, createdAt: DEMO_NOW + 1000 });
      expect(stored.source).toBe(`reflection:${insight!.evidence.join(",")}`);
      expect(insight!.evidence.length).toBeGreaterThan(0);
      expect(session.memory.importance.rated).toBe(8);
    } finally {
      session.close();
    }
  });

  it("reopened, still owes reflection what was written since the last insight", async () => {
    const client = new OllamaClient({ host: double.host });
    const tokenizer = await loadGemmaTokenizer();
    const storePath = temp.path("reopened.sqlite");
    const open = () => ChatSession.open({ client, tokenizer, storePath, policy: fullPolicy, model: "gemma4:e2b", scope: "u", reflectionThreshold: 25 });
    const first = open();
    await first.say("I moved to Bergen.", DEMO_NOW);
    await first.say("I work on the storage chapter.", DEMO_NOW + 1);
    expect(first.memory.reflections).toBe(0);
    first.close();
    // 18 owed from the first chat; one more rated turn passes 25.
    const second = open();
    try {
      await second.say("Where do I live?", DEMO_NOW + 2);
      expect(second.memory.reflections).toBe(1);
    } finally {
      second.close();
    }
  });
});

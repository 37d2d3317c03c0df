/**
 * `npm run chat`: the demo (--seed), one message (--message), the line-by-line loop and --policy,
 * against the Ollama test double. Its bad inputs, through the real command line, are rows of
 * test/cli/main.test.ts.
 */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ChatArgs } from "../../../src/cli/app.js";
import { CHAT_SCOPE, chatCommand } from "../../../src/cli/commands/chat.js";
import { serialisePolicyPreset } from "../../../src/harness/policy/preset-file.js";
import { fullPolicy, loadGemmaTokenizer, openStore } from "../../../src/memory/index.js";
import { DEMO_QUESTION } from "../../../src/agent/chat-command.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { useTempDir } from "../../harness/temp-files.js";
import { isRatingPrompt } from "../../harness/answers/double-answers.js";
import { startOllamaDouble, type OllamaDouble } from "../../model/ollama-test-double.js";

const temp = useTempDir("recollect-chat-cli-");
let double: OllamaDouble;
const printed: string[] = [];
const print = (text: string) => void printed.push(text);

beforeAll(async () => {
  // Answers repeat the question and say whether the block remembered an earlier turn.
  double = await startOllamaDouble({
    answer: (body) => {
      const system = body.messages[0]!.content;
      return `re: ${body.messages.at(-1)!.content}${system.includes("User asked:") ? " (I remember our chat)" : ""}`;
    },
  });
});
afterAll(() => double.stop());
beforeEach(() => {
  printed.length = 0;
  double.requests.length = 0;
});

const args = (extra: Partial<ChatArgs>): ChatArgs => ({
  seed: false,
  model: "gemma4:e2b",
  timeoutMs: 10_000,
  maxReplyBytes: 1024 * 1024,
  reflectionThreshold: 150,
  host: double.host,
  // A cache of each test's own, so no test is served what another embedded.
  embeddingCache: temp.path(`embeddings-${++caches}.db`),
  ...extra,
});
let caches = 0;
const chatBodies = () => double.requests.filter((r) => r.route === "chat").map((r) => r.body as { messages: { content: string }[] });
/** The chat calls that answer the user, leaving out the importance ratings. */
const answerBodies = () => chatBodies().filter((b) => !isRatingPrompt(b.messages.at(-1)!.content));

describe("chat against a server", () => {
  it("--seed preloads the demo memories and asks the demo question", async () => {
    await chatCommand(args({ seed: true }), { print });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain(`question: ${DEMO_QUESTION}`);
    expect(printed[0]).toContain("moved its storage from Postgres to SQLite");
    expect(printed[0]).toContain(`answer: re: ${DEMO_QUESTION}`);
    expect(answerBodies()[0]!.messages[0]!.content).toContain("The user's name is Ada.");
  });

  it("--message answers once and writes the turn back to the --db store", async () => {
    const db = temp.path("one.sqlite");
    await chatCommand(args({ message: "I moved to Bergen.", db }), { print, now: () => Date.UTC(2025, 0, 1) });
    expect(printed).toEqual(["re: I moved to Bergen."]);
    const store = openStore(db, { tokenizer: await loadGemmaTokenizer() });
    try {
      expect(store.current(CHAT_SCOPE, Date.UTC(2025, 0, 2)).map((m) => m.text)).toEqual([
        "User asked: I moved to Bergen. / Assistant answered: re: I moved to Bergen.",
      ]);
    } finally {
      store.close();
    }
  });

  it("without --message, answers each input line on one store until /exit", async () => {
    let t = Date.UTC(2025, 0, 1);
    const input = Readable.from(["Where do I live?\n", "\n", "What did I ask?\n", "/exit\n", "never asked\n"]);
    await chatCommand(args({}), { print, input, now: () => (t += 60_000) });
    expect(printed).toEqual(["re: Where do I live?", "re: What did I ask? (I remember our chat)"]);
    expect(answerBodies()).toHaveLength(2);
    // Each written-back turn was rated by the model.
    expect(chatBodies().length - answerBodies().length).toBe(2);
  });

  it("--embed-model ollama:<model> embeds the message and the turn on the chat's Ollama server", async () => {
    await chatCommand(args({ message: "Hello", embedModel: "ollama:nomic-embed-text" }), { print });
    const embeds = double.requests.filter((r) => r.route === "embed").map((r) => r.body.input);
    expect(embeds).toEqual([["Hello"], ["User asked: Hello / Assistant answered: re: Hello"]]);
  });

  it("ranks by embeddings out of the box, with the in-process encoder: the server is asked for no embedding", async () => {
    const db = temp.path("default-embedding.sqlite");
    await chatCommand(args({ message: "Hello", db }), { print });
    expect(double.requests.filter((r) => r.route === "embed")).toEqual([]);
    const stored = new Database(db, { readonly: true }).prepare("SELECT embedding_model AS model FROM memories").all() as { model: string }[];
    expect(stored.map((r) => r.model)).toEqual(["use-lite"]);
  });

  it("--policy reads a preset file: here one that writes nothing back, so nothing is stored or rated", async () => {
    const db = temp.path("policy.sqlite");
    const policy = temp.write("quiet.json", serialisePolicyPreset({ name: "quiet", description: "full, without write-back", policy: { ...fullPolicy, writeBack: false } }));
    await chatCommand(args({ message: "Remember nothing.", db, policy }), { print, now: () => Date.UTC(2025, 0, 1) });
    expect(printed).toEqual(["re: Remember nothing."]);
    expect(chatBodies()).toHaveLength(1);
    const store = openStore(db, { tokenizer: await loadGemmaTokenizer() });
    try {
      expect(store.size()).toBe(0);
    } finally {
      store.close();
    }
  });

  it("refuses a policy file that is not a preset, before calling the server", async () => {
    const policy = temp.write("not-a-preset.json", JSON.stringify({ format: "recollect-policy/1", name: "x", description: "", policy: { mode: "pooled" } }));
    const error = await chatCommand(args({ message: "hi", policy }), { print }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecollectError);
    expect((error as Error).message.startsWith(`${policy}: at policy.score: `), (error as Error).message).toBe(true);
    expect(double.requests).toHaveLength(0);
  });

  it("checks the server before opening the store", async () => {
    const db = temp.path("never.sqlite");
    const error = await chatCommand(args({ message: "hi", db, host: "http://127.0.0.1:9" }), { print }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecollectError);
    expect((error as Error).message).toBe("no Ollama server at http://127.0.0.1:9: start it with `ollama serve`, or use recorded calls");
    expect(existsSync(db)).toBe(false);
  });
});

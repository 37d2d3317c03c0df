/**
 * `npm run chat`: the demo (--seed), one message (--message) and the line-by-line loop, against the
 * Ollama test double; and, through the real command line, the one-line server-down failure.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ChatArgs } from "../../../src/cli/app.js";
import { CHAT_SCOPE, chatCommand } from "../../../src/cli/commands/chat.js";
import { loadGemmaTokenizer, openStore } from "../../../src/memory/index.js";
import { DEMO_QUESTION } from "../../../src/model/chat-command.js";
import { UserError } from "../../../src/shared/errors.js";
import { REPO_ROOT, useTempDir } from "../../harness/temp-files.js";
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

const args = (extra: Partial<ChatArgs>): ChatArgs => ({ seed: false, model: "gemma4:e2b", timeoutMs: 10_000, host: double.host, ...extra });
const chatBodies = () => double.requests.filter((r) => r.route === "chat").map((r) => r.body as { messages: { content: string }[] });

describe("chat against a server", () => {
  it("--seed preloads the demo memories and asks the demo question", async () => {
    await chatCommand(args({ seed: true }), { print });
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain(`question: ${DEMO_QUESTION}`);
    expect(printed[0]).toContain("moved its storage from Postgres to SQLite");
    expect(printed[0]).toContain(`answer: re: ${DEMO_QUESTION}`);
    expect(chatBodies()[0]!.messages[0]!.content).toContain("The user's name is Ada.");
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
    expect(chatBodies()).toHaveLength(2);
  });

  it("--embed-model ranks by embedding: the message and the turn are embedded", async () => {
    await chatCommand(args({ message: "Hello", embedModel: "nomic-embed-text" }), { print });
    const embeds = double.requests.filter((r) => r.route === "embed").map((r) => r.body.input);
    expect(embeds).toEqual([["Hello"], ["User asked: Hello / Assistant answered: re: Hello"]]);
  });

  it("checks the server before opening the store", async () => {
    const db = temp.path("never.sqlite");
    const error = await chatCommand(args({ message: "hi", db, host: "http://127.0.0.1:9" }), { print }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe("no Ollama server at http://127.0.0.1:9: start it with `ollama serve`, or use recorded calls");
    expect(existsSync(db)).toBe(false);
  });
});

describe("npm run chat with no server", () => {
  it("exits 2 with the one-line server-down message and no stack trace", async () => {
    const child = spawn("npx", ["tsx", "src/cli/main.ts", "chat", "--seed"], {
      cwd: REPO_ROOT,
      env: { ...process.env, OLLAMA_HOST: "http://127.0.0.1:9", FORCE_COLOR: "0", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", resolve);
    });
    expect(code).toBe(2);
    expect(stderr).toBe("recollect: no Ollama server at http://127.0.0.1:9: start it with `ollama serve`, or use recorded calls\n");
    expect(stdout).toBe("");
  });
});

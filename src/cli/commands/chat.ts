/**
 * `npm run chat`: chat with memory through a live Ollama server. Each turn is the model layer's
 * chat loop: embed the message (with --embed-model), retrieve, inject the block, answer, write
 * the turn back. `--seed` is the quick demo (a few preloaded memories, one question);
 * `--message` sends one message; otherwise every line of standard input is a turn, until end of
 * input or "/exit". The server is checked before anything else, so a stopped server fails fast
 * with the one-line server-down message (exit 2).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import * as memory from "../../memory/index.js";
import type { RetrievalPolicy } from "../../memory/types.js";
import { runChat } from "../../model/chat-command.js";
import { chatTurn } from "../../model/chat-loop.js";
import { OllamaClient } from "../../model/client.js";
import { modelEmbedder } from "../../model/embedder.js";
import { checkServer } from "../../model/server-check.js";
import type { ChatArgs } from "../app.js";

/** Whose memories the chat stores, so a --db file keeps one conversation partner across runs. */
export const CHAT_SCOPE = "user";
export const EXIT_COMMAND = "/exit";

export interface ChatIo {
  /** The lines of an interactive chat; standard input by default. */
  input: NodeJS.ReadableStream;
  print: (text: string) => void;
  /** Where OLLAMA_HOST is read from; the process environment by default. */
  env: Record<string, string | undefined>;
  /** The time of each turn; the wall clock by default (the memory system never reads it itself). */
  now: () => number;
}

/** The full system; with an embedding model, relevance comes from embeddings instead of shared words. */
export function chatPolicy(embedModel?: string): RetrievalPolicy {
  if (!embedModel) return memory.fullPolicy;
  return { ...memory.fullPolicy, score: { ...memory.fullPolicy.score, relevance: "embedding" } };
}

export async function chatCommand(args: ChatArgs, io: Partial<ChatIo> = {}): Promise<void> {
  const print = io.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  const env = io.env ?? process.env;
  const policy = chatPolicy(args.embedModel);
  if (args.seed) {
    // runChat checks the server before it opens anything.
    await runChat({
      memory,
      policy,
      seedMemories: true,
      ...(args.message === undefined ? {} : { question: args.message }),
      ...(args.db === undefined ? {} : { storePath: args.db }),
      host: args.host,
      env,
      timeoutMs: args.timeoutMs,
      model: args.model,
      ...(args.embedModel ? { embedModel: args.embedModel } : {}),
      print,
    });
    return;
  }

  const client = new OllamaClient({ host: args.host, env, timeoutMs: args.timeoutMs });
  await checkServer(client, args.embedModel ? [args.model, args.embedModel] : [args.model]);
  const tokenizer = await memory.loadGemmaTokenizer();
  const temporary = args.db === undefined ? mkdtempSync(join(tmpdir(), "recollect-chat-")) : undefined;
  const store = memory.openStore(args.db ?? join(temporary!, "memory.sqlite"), { tokenizer });
  const now = io.now ?? Date.now;
  const embedder = args.embedModel ? modelEmbedder(client, args.embedModel) : undefined;
  const turn = (text: string) =>
    chatTurn(
      {
        client,
        store,
        memory,
        policy,
        clock: now,
        model: args.model,
        ...(embedder ? { embedder } : {}),
        countRequest: (messages) => memory.countRequest(tokenizer, messages),
      },
      { scope: CHAT_SCOPE, user: text },
    );
  try {
    if (args.message !== undefined) {
      print((await turn(args.message)).answer);
      return;
    }
    const input = io.input ?? process.stdin;
    if (input === process.stdin && process.stdin.isTTY) {
      print(`chat with ${args.model}: one message per line; ${EXIT_COMMAND} or end of input to leave`);
    }
    for await (const line of createInterface({ input, terminal: false, crlfDelay: Infinity })) {
      const text = line.trim();
      if (text === EXIT_COMMAND) break;
      if (text === "") continue;
      print((await turn(text)).answer);
    }
  } finally {
    store.close();
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  }
}

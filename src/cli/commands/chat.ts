/**
 * `npm run chat`: chat with memory through a live Ollama server. Each turn is the model layer's
 * chat session: embed the message (under an embedding policy), retrieve, inject the block, answer,
 * write the turn back; every new memory is rated by the model and reflection runs past the
 * threshold. `--seed` is the quick demo (a few preloaded memories, one question); `--message`
 * sends one message; otherwise every line of standard input is a turn, until end of input or
 * "/exit". `--policy FILE` reads a retrieval policy preset. The server is checked before anything
 * else, so a stopped server fails fast with the one-line server-down message (exit 2).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { readPolicyPreset } from "../../harness/policy/preset-file.js";
import { fullPolicy, loadGemmaTokenizer, usesEmbedding } from "../../memory/index.js";
import type { RetrievalPolicy } from "../../memory/index.js";
import { ChatSession, chatEmbedder, chatModels, runChat } from "../../agent/chat-command.js";
import { OllamaClient } from "../../model/client.js";
import { checkServer } from "../../model/server-check.js";
import type { ChatArgs } from "../app.js";

/** Whose memories the chat stores, so a --db file keeps one conversation partner across runs. */
export const CHAT_SCOPE = "user";
const EXIT_COMMAND = "/exit";

export interface ChatIo {
  /** The lines of an interactive chat; standard input by default. */
  input: NodeJS.ReadableStream;
  print: (text: string) => void;
  /** Where OLLAMA_HOST is read from; the process environment by default. */
  env: Record<string, string | undefined>;
  /** The time of each turn; the wall clock by default (the memory system never reads it itself). */
  now: () => number;
}

/**
 * The preset file's policy, or the full system ranking by embeddings (the memory stream's own
 * signal; the in-process encoder needs no server). --embed-model switches a preset that ranks by
 * words or BM25 to embeddings too.
 */
function chatPolicy(args: Pick<ChatArgs, "policy" | "embedModel">): RetrievalPolicy {
  const policy = args.policy === undefined ? fullPolicy : readPolicyPreset(args.policy).policy;
  if (args.policy !== undefined && !args.embedModel) return policy;
  if (usesEmbedding(policy)) return policy;
  return { ...policy, score: { ...policy.score, relevance: "embedding" } };
}

export async function chatCommand(args: ChatArgs, io: Partial<ChatIo> = {}): Promise<void> {
  const print = io.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  const env = io.env ?? process.env;
  const policy = chatPolicy(args);
  const client = { host: args.host, env, timeoutMs: args.timeoutMs, maxReplyBytes: args.maxReplyBytes };
  const model = { model: args.model, ...(args.embedModel ? { embedModel: args.embedModel } : {}) };
  const embedding = {
    ...(args.embedUrl === undefined ? {} : { embedUrl: args.embedUrl }),
    ...(args.embeddingCache === undefined ? {} : { embeddingCache: args.embeddingCache }),
  };
  if (args.seed) {
    // runChat checks the server before it opens anything.
    await runChat({
      ...client,
      ...model,
      ...embedding,
      policy,
      seedMemories: true,
      ...(args.message === undefined ? {} : { question: args.message }),
      ...(args.db === undefined ? {} : { storePath: args.db }),
      reflectionThreshold: args.reflectionThreshold,
      print,
    });
    return;
  }

  const live = new OllamaClient(client);
  await checkServer(live, chatModels(policy, args.model, args.embedModel));
  const tokenizer = await loadGemmaTokenizer();
  const embedder = usesEmbedding(policy)
    ? await chatEmbedder({
        client: live,
        ...(args.embedModel === undefined ? {} : { model: args.embedModel }),
        ...(args.embedUrl === undefined ? {} : { url: args.embedUrl }),
        ...(args.embeddingCache === undefined ? {} : { cacheFile: args.embeddingCache }),
      })
    : undefined;
  const temporary = args.db === undefined ? mkdtempSync(join(tmpdir(), "recollect-chat-")) : undefined;
  try {
    const session = ChatSession.open({
      client: live,
      tokenizer,
      storePath: args.db ?? join(temporary!, "memory.sqlite"),
      policy,
      model: args.model,
      ...(embedder === undefined ? {} : { embedder: embedder.embedder }),
      scope: CHAT_SCOPE,
      reflectionThreshold: args.reflectionThreshold,
    });
    const now = io.now ?? Date.now;
    try {
      if (args.message !== undefined) {
        print((await session.say(args.message, now())).answer);
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
        print((await session.say(text, now())).answer);
      }
    } finally {
      session.close();
    }
  } finally {
    await embedder?.close();
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  }
}

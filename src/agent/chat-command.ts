/**
 * The chat as `npm run chat` runs it: a session over one store, each turn the chat loop (embed,
 * retrieve, inject, answer, write back), every new memory rated by the model at write time and
 * reflection past the threshold, through RatedMemory, as the answer-level evaluation writes.
 * `runChat` is the one-question form (the --seed demo): it builds the client (live, recording or
 * replaying), checks the server first with GET /api/tags so a stopped server fails fast with the
 * one-line server-down error, and prints the block and the answer.
 */
import { countRequest, type GemmaTokenizer, loadGemmaTokenizer, openStore, usesEmbedding } from "../memory/index.js";
import type { MemoryStore } from "../memory/index.js";
import type { NewMemory, RetrievalPolicy } from "../memory/index.js";
import type { TurnResult } from "./chat-loop.js";
import { OllamaClient } from "../model/client.js";
import type { Embedder } from "../model/embedder.js";
import { cachedEmbedder, createEmbedder, DEFAULT_CACHE_FILE, DEFAULT_EMBEDDING_MODEL, EmbeddingCache, parseModelId } from "../model/embedding/index.js";
import { DEFAULT_CHAT_MODEL } from "../model/options.js";
import { RatedMemory } from "./rated-memory.js";
import { createRecordingClient, type RecordMode } from "../model/recorder.js";
import { REFLECTION_THRESHOLD } from "./reflection.js";
import { checkServer } from "../model/server-check.js";
import type { ModelClient } from "../model/types.js";

export const DEMO_SCOPE = "demo";
export const DEMO_NOW = Date.UTC(2025, 0, 15, 12);
export const DEMO_QUESTION = "Which database does the project use now, and why?";
const DAY = 86_400_000;

/** A few memories of each kind, one fact corrected by a later one. */
export function demoMemories(now: number, scope = DEMO_SCOPE): NewMemory[] {
  return [
    { id: "demo-name", scope, kind: "semantic", text: "The user's name is Ada.", createdAt: now - 30 * DAY, importance: 6 },
    { id: "demo-db-old", scope, kind: "semantic", text: "The project stores its data in Postgres.", createdAt: now - 20 * DAY, importance: 6 },
    {
      id: "demo-db-new",
      scope,
      kind: "semantic",
      text: "The project moved its storage from Postgres to SQLite, to ship as a single file.",
      createdAt: now - 2 * DAY,
      importance: 8,
      supersedes: "demo-db-old",
    },
    {
      id: "demo-bench",
      scope,
      kind: "episodic",
      text: "Ada benchmarked SQLite against Postgres on her laptop; SQLite was fast enough.",
      createdAt: now - 3 * DAY,
      occurredAt: now - 3 * DAY,
      importance: 5,
    },
    { id: "demo-task", scope, kind: "working", text: "Current task: write the storage chapter of the design doc.", createdAt: now - 3_600_000, importance: 3 },
    { id: "demo-style", scope, kind: "procedural", text: "Answer Ada in one or two sentences.", createdAt: now - 10 * DAY, importance: 4 },
  ];
}

/**
 * The models a chat under `policy` asks its Ollama server for: the chat model, and the embedding
 * model when the policy ranks by embedding with an Ollama model (an in-process or other server's
 * model is not the Ollama server's to have).
 */
export function chatModels(policy: RetrievalPolicy, model: string, embedModel = DEFAULT_EMBEDDING_MODEL): string[] {
  const parsed = parseModelId(embedModel);
  return usesEmbedding(policy) && parsed.provider === "ollama" ? [model, parsed.name] : [model];
}

/**
 * The embedder a chat ranks with: the model the id names (the in-process encoder by default), its
 * vectors through the persistent cache. An Ollama model on the chat's own server goes through the
 * chat's client, so recordings cover its calls too.
 */
export async function chatEmbedder(settings: { model?: string; url?: string; client: ModelClient; cacheFile?: string }): Promise<{ embedder: Embedder; close(): Promise<void> }> {
  const model = settings.model ?? DEFAULT_EMBEDDING_MODEL;
  const sameServer = parseModelId(model).provider === "ollama" && settings.url === undefined;
  const inner = await createEmbedder({ model, ...(settings.url === undefined ? {} : { url: settings.url }), ...(sameServer ? { client: settings.client } : {}) });
  // The cache file is made on the first text to embed, so a chat refused before it begins (a bad
  // store, a missing model) leaves nothing behind.
  let cache: EmbeddingCache | undefined;
  let cached: Embedder | undefined;
  return {
    embedder: {
      model: inner.model,
      embed(texts) {
        cache ??= EmbeddingCache.open(settings.cacheFile ?? DEFAULT_CACHE_FILE);
        cached ??= cachedEmbedder(inner, cache);
        return cached.embed(texts);
      },
    },
    close: async () => {
      await inner.close?.();
      cache?.close();
    },
  };
}

export interface ChatSessionOptions {
  client: ModelClient;
  tokenizer: GemmaTokenizer;
  /** A store file, or ":memory:". */
  storePath: string;
  policy: RetrievalPolicy;
  model: string;
  /** Embeds memories and queries; required when the policy ranks by embedding. */
  embedder?: Embedder;
  scope: string;
  /** The model's sampling seed. */
  samplingSeed?: number;
  /** Reflect once this much new rated importance has accumulated; REFLECTION_THRESHOLD by default. */
  reflectionThreshold?: number;
}

/** One conversation partner's memory: a store, the model that rates and reflects, and the turns. */
export class ChatSession {
  readonly memory: RatedMemory;
  private readonly embedder: Embedder | undefined;

  private constructor(
    private readonly options: ChatSessionOptions,
    readonly store: MemoryStore,
  ) {
    if (usesEmbedding(options.policy) && options.embedder === undefined) throw new TypeError("the policy ranks by embedding, but the chat session was given no embedder");
    this.embedder = usesEmbedding(options.policy) ? options.embedder : undefined;
    this.memory = new RatedMemory({
      client: options.client,
      store,
      scope: options.scope,
      policy: options.policy,
      model: options.model,
      ...(options.samplingSeed === undefined ? {} : { options: { seed: options.samplingSeed } }),
      reflectionThreshold: options.reflectionThreshold ?? REFLECTION_THRESHOLD,
    });
  }

  static open(options: ChatSessionOptions): ChatSession {
    return new ChatSession(options, openStore(options.storePath, { tokenizer: options.tokenizer }));
  }

  /** Writes the demo memories (with embeddings under an embedding policy), each rated by the model. */
  async seed(now: number): Promise<void> {
    const memories = demoMemories(now, this.options.scope);
    const vectors = this.embedder ? await this.embedder.embed(memories.map((m) => m.text)) : [];
    const embedder = this.embedder;
    await this.memory.remember(
      embedder ? memories.map((m, i) => ({ ...m, embedding: { model: embedder.model, vector: vectors[i]! } })) : memories,
      now,
    );
  }

  /** One turn at `now`: the answer, the block it was given, and the rated importance of the turn. */
  say(text: string, now: number): Promise<TurnResult> {
    const { tokenizer } = this.options;
    return this.memory.turn({ user: text }, now, {
      ...(this.embedder ? { embedder: this.embedder } : {}),
      countRequest: (messages) => countRequest(tokenizer, messages),
    });
  }

  close(): void {
    this.store.close();
  }
}

export interface RunChatOptions {
  policy: RetrievalPolicy;
  /** The question to ask; DEMO_QUESTION by default. */
  question?: string;
  /** Preload DEMO_MEMORIES first (the CLI's --seed). */
  seedMemories?: boolean;
  samplingSeed?: number;
  /** A store file, or ":memory:" (the default). */
  storePath?: string;
  scope?: string;
  host?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  maxReplyBytes?: number;
  model?: string;
  /** The embedding model id (the in-process encoder by default), its server, and the cache file. */
  embedModel?: string;
  embedUrl?: string;
  embeddingCache?: string;
  reflectionThreshold?: number;
  /** Record or replay the calls; live by default. */
  recordings?: { mode: RecordMode; file: string; timestamp?: () => string };
  /** The virtual time of the turn; a fixed demo time with seedMemories, else the wall clock. */
  now?: number;
  print?: (text: string) => void;
}

export async function runChat(options: RunChatOptions): Promise<TurnResult> {
  const print = options.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  const model = options.model ?? DEFAULT_CHAT_MODEL;
  const mode = options.recordings?.mode ?? "live";

  // Replay needs no server, so it neither builds nor checks one.
  let client: ModelClient;
  if (mode === "replay") {
    client = createRecordingClient({ mode, file: options.recordings!.file });
  } else {
    const live = new OllamaClient({ host: options.host, env: options.env, timeoutMs: options.timeoutMs, maxReplyBytes: options.maxReplyBytes });
    await checkServer(live, chatModels(options.policy, model, options.embedModel));
    client = options.recordings ? createRecordingClient({ ...options.recordings, live }) : live;
  }

  const now = options.now ?? (options.seedMemories ? DEMO_NOW : Date.now());
  const embedding = usesEmbedding(options.policy)
    ? await chatEmbedder({ client, ...(options.embedModel === undefined ? {} : { model: options.embedModel }), ...(options.embedUrl === undefined ? {} : { url: options.embedUrl }), ...(options.embeddingCache === undefined ? {} : { cacheFile: options.embeddingCache }) })
    : undefined;
  try {
    const session = ChatSession.open({
      client,
      tokenizer: await loadGemmaTokenizer(),
      storePath: options.storePath ?? ":memory:",
      policy: options.policy,
      model,
      ...(embedding === undefined ? {} : { embedder: embedding.embedder }),
      scope: options.scope ?? DEMO_SCOPE,
      ...(options.samplingSeed === undefined ? {} : { samplingSeed: options.samplingSeed }),
      ...(options.reflectionThreshold === undefined ? {} : { reflectionThreshold: options.reflectionThreshold }),
    });
    try {
      if (options.seedMemories) await session.seed(now);
      const question = options.question ?? DEMO_QUESTION;
      const result = await session.say(question, now);
      print(`question: ${question}\n\n${result.block.text}\n\nanswer: ${result.answer}`);
      return result;
    } finally {
      session.close();
    }
  } finally {
    await embedding?.close();
  }
}

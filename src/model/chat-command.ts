/**
 * `npm run chat`: one question through the whole memory system against Ollama (or recordings).
 * The CLI passes in the memory system's functions and a policy, so this module depends on the
 * memory system only through their shapes. The server is checked first with GET /api/tags, so a
 * stopped server fails fast with the one-line server-down error.
 */
import type { Block, NewMemory, RetrievalPolicy, RetrieveRequest, Turn } from "../memory/types.js";
import { chatTurn, usesEmbedding, type TurnResult } from "./chat-loop.js";
import { OllamaClient } from "./client.js";
import { modelEmbedder, type Embedder } from "./embedder.js";
import { DEFAULT_CHAT_MODEL, DEFAULT_EMBED_MODEL } from "./options.js";
import { createRecordingClient, type RecordMode } from "./recorder.js";
import { checkServer } from "./server-check.js";
import type { ChatMessage, ModelClient } from "./types.js";

/** A store as the chat command uses it. */
export interface ChatStore {
  remember(memory: NewMemory): unknown;
  close(): void;
}

/** The memory system's API, passed in by the CLI. */
export interface ChatMemoryApi<S extends ChatStore, T = unknown> {
  loadGemmaTokenizer(): T | Promise<T>;
  openStore(path: string, options: { tokenizer: T }): S;
  retrieve(store: S, request: RetrieveRequest): Block;
  writeBack(store: S, turn: Turn, policy: RetrievalPolicy): unknown;
  turnText(turn: Pick<Turn, "user" | "assistant">): string;
  countRequest?(tokenizer: T, messages: ChatMessage[]): number;
}

export interface RunChatOptions<S extends ChatStore, T = unknown> {
  memory: ChatMemoryApi<S, T>;
  policy: RetrievalPolicy;
  /** The question to ask; DEMO_QUESTION by default. */
  question?: string;
  /** Preload DEMO_MEMORIES first (the CLI's --seed). */
  seedMemories?: boolean;
  /** The model's sampling seed. */
  samplingSeed?: number;
  /** A store file, or ":memory:" (the default). */
  storePath?: string;
  scope?: string;
  host?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  model?: string;
  embedModel?: string;
  /** Record or replay the calls; live by default. */
  recordings?: { mode: RecordMode; file: string; timestamp?: () => string };
  /** The virtual time of the turn; a fixed demo time with seedMemories, else the wall clock. */
  now?: number;
  print?: (text: string) => void;
}

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

export async function runChat<S extends ChatStore, T>(options: RunChatOptions<S, T>): Promise<TurnResult> {
  const print = options.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  const model = options.model ?? DEFAULT_CHAT_MODEL;
  const embedModel = options.embedModel ?? DEFAULT_EMBED_MODEL;
  const embedding = usesEmbedding(options.policy);
  const mode = options.recordings?.mode ?? "live";

  // Replay needs no server, so it neither builds nor checks one.
  let client: ModelClient;
  if (mode === "replay") {
    client = createRecordingClient({ mode, file: options.recordings!.file });
  } else {
    const live = new OllamaClient({ host: options.host, env: options.env, timeoutMs: options.timeoutMs });
    await checkServer(live, embedding ? [model, embedModel] : [model]);
    client = options.recordings ? createRecordingClient({ ...options.recordings, live }) : live;
  }
  const embedder = embedding ? modelEmbedder(client, embedModel) : undefined;

  const now = options.now ?? (options.seedMemories ? DEMO_NOW : Date.now());
  const scope = options.scope ?? DEMO_SCOPE;
  const tokenizer = await options.memory.loadGemmaTokenizer();
  const store = options.memory.openStore(options.storePath ?? ":memory:", { tokenizer });
  try {
    if (options.seedMemories) await seed(store, demoMemories(now, scope), embedder);
    const { countRequest } = options.memory;
    const result = await chatTurn(
      {
        client,
        store,
        memory: options.memory,
        policy: options.policy,
        clock: () => now,
        model,
        ...(options.samplingSeed === undefined ? {} : { options: { seed: options.samplingSeed } }),
        ...(embedder ? { embedder } : {}),
        ...(countRequest ? { countRequest: (messages: ChatMessage[]) => countRequest(tokenizer, messages) } : {}),
      },
      { scope, user: options.question ?? DEMO_QUESTION },
    );
    print(`question: ${options.question ?? DEMO_QUESTION}\n\n${result.block.text}\n\nanswer: ${result.answer}`);
    return result;
  } finally {
    store.close();
  }
}

async function seed(store: ChatStore, memories: NewMemory[], embedder: Embedder | undefined): Promise<void> {
  const vectors = embedder ? await embedder.embed(memories.map((m) => m.text)) : [];
  memories.forEach((memory, i) => {
    store.remember(embedder ? { ...memory, embedding: { model: embedder.model, vector: vectors[i]! } } : memory);
  });
}

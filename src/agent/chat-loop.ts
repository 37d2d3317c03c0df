/**
 * One chat turn through the memory system: embed the query (when the policy ranks by embedding),
 * retrieve a block, inject it into the system message, answer, and write the turn back (with its
 * own embedding, so later queries can find it). The client (live or replayed), the store, the
 * policy and the clock are passed in, so the harness and the CLI run the same code.
 */
import { retrieve, turnText, usesEmbedding, writeBack } from "../memory/index.js";
import type { MemoryStore } from "../memory/index.js";
import type { Block, RetrievalPolicy, RetrieveRequest, Turn } from "../memory/index.js";
import type { Embedder } from "../model/embedder.js";
import type { ImportanceRating } from "./importance.js";
import type { ChatMessage, ModelClient, SamplingOptions } from "../model/types.js";

export interface ChatLoopDeps {
  client: ModelClient;
  store: MemoryStore;
  policy: RetrievalPolicy;
  /** The virtual clock, read once per turn. */
  clock: () => number;
  model: string;
  options?: SamplingOptions;
  think?: boolean;
  /** Required when the policy ranks by embedding. */
  embedder?: Embedder;
  /** Rates the turn's importance at write time (LLM-rated importance); the store's default otherwise. */
  rate?: (text: string) => Promise<ImportanceRating>;
  /** Counts the completed request's tokens before sending (the memory system's countRequest). */
  countRequest?: (messages: ChatMessage[]) => number;
  systemPrompt?: string;
}

export interface TurnResult {
  answer: string;
  block: Block;
  messages: ChatMessage[];
  now: number;
  requestTokens: number | null;
  importance: ImportanceRating | null;
}

export const DEFAULT_SYSTEM_PROMPT =
  "You are a helpful assistant with a long-term memory of this user. The memory block below holds " +
  "what you remember, grouped by kind. Use it when it is relevant, prefer newer facts, and answer " +
  "briefly. If the memory does not hold the answer, say that you do not know.";

function systemMessage(block: Block, prompt = DEFAULT_SYSTEM_PROMPT): ChatMessage {
  return { role: "system", content: `${prompt}\n\n${block.text}` };
}

export async function chatTurn(deps: ChatLoopDeps, turn: { scope: string; user: string; id?: string }): Promise<TurnResult> {
  const now = deps.clock();
  const query: RetrieveRequest["query"] = { text: turn.user };
  if (usesEmbedding(deps.policy)) {
    if (!deps.embedder) throw new TypeError("the policy ranks by embedding, but the chat loop was given no embedder");
    const [vector] = await deps.embedder.embed([turn.user]);
    query.embedding = { model: deps.embedder.model, vector: vector! };
  }
  const block = retrieve(deps.store, { scope: turn.scope, query, now, policy: deps.policy });
  const messages: ChatMessage[] = [systemMessage(block, deps.systemPrompt), { role: "user", content: turn.user }];
  const requestTokens = deps.countRequest ? deps.countRequest(messages) : null;
  const reply = await deps.client.chat({
    model: deps.model,
    messages,
    ...(deps.options ? { options: deps.options } : {}),
    ...(deps.think === undefined ? {} : { think: deps.think }),
  });
  // Rating costs a model call, so it is spent only on turns that will be stored.
  const importance = deps.rate && deps.policy.writeBack ? await deps.rate(turn.user) : null;
  const written: Turn = { scope: turn.scope, user: turn.user, assistant: reply.content, now };
  if (turn.id !== undefined) written.id = turn.id;
  if (importance) written.importance = importance.importance;
  if (deps.embedder && deps.policy.writeBack && usesEmbedding(deps.policy)) {
    const [vector] = await deps.embedder.embed([turnText(written)]);
    written.embedding = { model: deps.embedder.model, vector: vector! };
  }
  // The memory system's writeBack honours policy.writeBack itself.
  writeBack(deps.store, written, deps.policy);
  return { answer: reply.content, block, messages, now, requestTokens, importance };
}

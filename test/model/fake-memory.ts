/**
 * TEST FAKE — a tiny stand-in for the memory system's API (openStore, retrieve, writeBack,
 * loadGemmaTokenizer, countRequest), so the chat loop and chat command are tested on their own.
 * It keeps memories in an array and retrieves current ones sharing a word with the query. It
 * records every call so tests can check what the model layer passed in.
 */
import type { Block, Memory, NewMemory, RetrievalPolicy, RetrieveRequest, SectionRule, Turn } from "../../src/memory/types.js";
import type { ChatMessage } from "../../src/model/types.js";

export class FakeStore {
  memories: Memory[] = [];
  closed = false;
  constructor(readonly path: string, readonly tokenizer: unknown) {}

  remember(memory: NewMemory): Memory {
    const stored: Memory = {
      id: memory.id ?? `${memory.scope}-${this.memories.length + 1}`,
      scope: memory.scope,
      kind: memory.kind,
      text: memory.text,
      createdAt: memory.createdAt,
      occurredAt: memory.occurredAt ?? null,
      lastAccessedAt: memory.lastAccessedAt ?? memory.createdAt,
      importance: memory.importance ?? 5,
      tokens: memory.text.split(" ").length,
      supersedes: memory.supersedes ?? null,
      expiresAt: memory.expiresAt ?? null,
      source: memory.source ?? null,
      embedding: memory.embedding ? Float32Array.from(memory.embedding.vector) : null,
      embeddingModel: memory.embedding?.model ?? null,
    };
    this.memories.push(stored);
    return stored;
  }

  close(): void {
    this.closed = true;
  }
}

export function fakeMemory() {
  const calls = { retrieve: [] as RetrieveRequest[], writeBack: [] as Turn[], opened: [] as FakeStore[] };
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  return {
    calls,
    loadGemmaTokenizer: async () => ({ tokenizer: "fake" }),
    openStore(path: string, options: { tokenizer: unknown }): FakeStore {
      const store = new FakeStore(path, options.tokenizer);
      calls.opened.push(store);
      return store;
    },
    retrieve(store: FakeStore, request: RetrieveRequest): Block {
      calls.retrieve.push(request);
      const corrected = new Set(store.memories.map((m) => m.supersedes));
      const query = words(request.query.text);
      const kept = store.memories.filter(
        (m) => m.scope === request.scope && !corrected.has(m.id) && [...words(m.text)].some((w) => query.has(w)),
      );
      return {
        sections: [{ name: "pooled", ranked: [], kept: kept.map((m) => m.id), dropped: [], tokensUsed: 0, quota: null }],
        text: `<memory>\n${kept.map((m) => `- ${m.text}`).join("\n")}\n</memory>`,
      };
    },
    turnText: (turn: Pick<Turn, "user" | "assistant">) => `User: ${turn.user}\nAssistant: ${turn.assistant ?? ""}`,
    writeBack(store: FakeStore, turn: Turn, policy: RetrievalPolicy): void {
      calls.writeBack.push(turn);
      if (!policy.writeBack) return;
      store.remember({
        scope: turn.scope,
        kind: "episodic",
        text: `User: ${turn.user}\nAssistant: ${turn.assistant ?? ""}`,
        createdAt: turn.now,
        ...(turn.importance === undefined ? {} : { importance: turn.importance }),
        ...(turn.embedding ? { embedding: turn.embedding } : {}),
      });
    },
    countRequest: (_tokenizer: unknown, messages: ChatMessage[]) =>
      messages.reduce((sum, m) => sum + m.content.split(/\s+/).length, 0),
  };
}

/** A complete policy; `relevance` and `writeBack` are the knobs these tests turn. */
export function testPolicy(relevance: "words" | "embedding" = "words", writeBack = true): RetrievalPolicy {
  const rule: SectionRule = { order: "score", fit: "skip", limit: 5, quota: null, requireRelevance: false };
  return {
    mode: "per-kind",
    score: { weights: [1, 1, 1], decayRate: 0.995, kindDecay: {}, unitMs: 3_600_000, normalise: "none", relevance },
    sections: {
      working: { ...rule, order: "newest", fit: "stop" },
      semantic: rule,
      episodic: rule,
      procedural: rule,
    },
    pooled: rule,
    touch: true,
    writeBack,
  };
}

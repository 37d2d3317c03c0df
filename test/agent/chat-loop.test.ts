import { beforeAll, describe, expect, it } from "vitest";
import { countRequest, type GemmaTokenizer, loadGemmaTokenizer, openStore, turnText } from "../../src/memory/index.js";
import type { RetrievalPolicy, SectionRule } from "../../src/memory/types.js";
import { chatTurn, DEFAULT_SYSTEM_PROMPT, type ChatLoopDeps } from "../../src/agent/chat-loop.js";
import { modelEmbedder } from "../../src/model/embedder.js";
import { doubleEmbedding } from "../model/ollama-test-double.js";
import { scriptedClient } from "../model/scripted-client.js";

let tokenizer: GemmaTokenizer;
beforeAll(async () => {
  tokenizer = await loadGemmaTokenizer();
});

/** A complete policy; `relevance` and `writeBack` are the knobs these tests turn. */
function testPolicy(relevance: "words" | "embedding" = "words", writeBack = true): RetrievalPolicy {
  const rule: SectionRule = { order: "score", fit: "skip", limit: 5, quota: null, requireRelevance: false };
  return {
    mode: "per-kind",
    score: { weights: [1, 1, 1], decayRate: 0.995, kindDecay: {}, unitMs: 3_600_000, normalise: "none", relevance },
    sections: { working: { ...rule, order: "newest", fit: "stop" }, semantic: rule, episodic: rule, procedural: rule },
    pooled: rule,
    touch: true,
    writeBack,
  };
}

/** A real store with two facts about Ada, under a words or an embedding policy. */
function setup(relevance: "words" | "embedding" = "words", writeBack = true) {
  const store = openStore(":memory:", { tokenizer });
  const facts = ["Ada drinks green tea", "Ada lives in Lisbon"];
  for (const text of facts) {
    store.remember({ scope: "ada", kind: "semantic", text, createdAt: 0, ...(relevance === "embedding" ? { embedding: { model: "ollama:nomic-embed-text", vector: doubleEmbedding(text) } } : {}) });
  }
  const client = scriptedClient(["Green tea."]);
  const deps: ChatLoopDeps = { client, store, policy: testPolicy(relevance, writeBack), clock: () => 42_000, model: "gemma4:e2b", options: { seed: 11 } };
  return { store, client, deps };
}

describe("chatTurn", () => {
  it("retrieves for the query, injects the block as the system message, answers and writes the turn back", async () => {
    const { store, client, deps } = setup();
    const result = await chatTurn(deps, { scope: "ada", user: "What does Ada drink?", id: "turn-1" });

    expect(client.chats).toEqual([
      {
        model: "gemma4:e2b",
        options: { seed: 11 },
        messages: [
          { role: "system", content: `${DEFAULT_SYSTEM_PROMPT}\n\n${result.block.text}` },
          { role: "user", content: "What does Ada drink?" },
        ],
      },
    ]);
    expect(result.block.text).toContain("Ada drinks green tea");
    expect(result.now).toBe(42_000);
    expect(result.answer).toBe("Green tea.");
    expect(store.get("ada", "turn-1")).toMatchObject({
      kind: "episodic",
      createdAt: 42_000,
      occurredAt: 42_000,
      text: turnText({ user: "What does Ada drink?", assistant: "Green tea." }),
      source: "write-back",
    });
    expect(result.requestTokens).toBeNull();
  });

  it("embeds the query, and the written-back turn, with the embedder's model when the policy ranks by embedding", async () => {
    const { store, client, deps } = setup("embedding");
    const result = await chatTurn({ ...deps, embedder: modelEmbedder(client, "nomic-embed-text") }, { scope: "ada", user: "tea?", id: "t" });
    const stored = turnText({ user: "tea?", assistant: "Green tea." });
    expect(client.embeds).toEqual([
      { model: "nomic-embed-text", input: ["tea?"] },
      { model: "nomic-embed-text", input: [stored] },
    ]);
    // The store records the embedder's id, which names the provider.
    expect(result.block.sections.flatMap((s) => s.kept)).toHaveLength(2);
    const turn = store.get("ada", "t")!;
    expect(turn.embeddingModel).toBe("ollama:nomic-embed-text");
    expect(Array.from(turn.embedding!)).toEqual(Array.from(Float32Array.from(doubleEmbedding(stored))));
  });

  it("does not embed under a words policy", async () => {
    const { client, deps } = setup("words");
    await chatTurn({ ...deps, embedder: modelEmbedder(client) }, { scope: "ada", user: "tea?" });
    expect(client.embeds).toHaveLength(0);
  });

  it("refuses an embedding policy without an embedder", async () => {
    const { deps } = setup("embedding");
    await expect(chatTurn(deps, { scope: "ada", user: "tea?" })).rejects.toThrow(/no embedder/);
  });

  it("stores the rated importance with the turn, and counts the request", async () => {
    const { store, deps } = setup();
    const result = await chatTurn(
      {
        ...deps,
        rate: async (text) => ({ importance: 1 + (text.length % 10), fallback: false, raw: "" }),
        countRequest: (messages) => countRequest(tokenizer, messages),
      },
      { scope: "ada", user: "What does Ada drink?", id: "rated" },
    );
    expect(store.get("ada", "rated")!.importance).toBe(1 + ("What does Ada drink?".length % 10));
    expect(result.importance?.importance).toBe(1 + ("What does Ada drink?".length % 10));
    expect(result.requestTokens).toBe(countRequest(tokenizer, result.messages));
  });

  it("spends no rating call when write-back is off, and the store keeps nothing", async () => {
    const { store, deps } = setup("words", false);
    let rated = 0;
    const before = store.size("ada");
    await chatTurn({ ...deps, rate: async () => ((rated += 1), { importance: 1, fallback: false, raw: "" }) }, { scope: "ada", user: "tea?" });
    expect(rated).toBe(0);
    expect(store.size("ada")).toBe(before);
  });
});

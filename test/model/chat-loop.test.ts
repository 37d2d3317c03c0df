import { describe, expect, it } from "vitest";
import { chatTurn, DEFAULT_SYSTEM_PROMPT, usesEmbedding, type ChatLoopDeps } from "../../src/model/chat-loop.js";
import { modelEmbedder } from "../../src/model/embedder.js";
import { doubleEmbedding } from "./ollama-test-double.js";
import { fakeMemory, testPolicy, type FakeStore } from "./fake-memory.js";
import { scriptedClient } from "./scripted-client.js";

function setup(relevance: "words" | "embedding" = "words", writeBack = true) {
  const memory = fakeMemory();
  const store = memory.openStore(":memory:", { tokenizer: null });
  store.remember({ scope: "ada", kind: "semantic", text: "Ada drinks green tea", createdAt: 0 });
  store.remember({ scope: "ada", kind: "semantic", text: "Ada lives in Lisbon", createdAt: 0 });
  const client = scriptedClient(["Green tea."]);
  const deps: ChatLoopDeps<FakeStore> = {
    client,
    store,
    memory,
    policy: testPolicy(relevance, writeBack),
    clock: () => 42_000,
    model: "gemma4:e2b",
    options: { seed: 11 },
  };
  return { memory, store, client, deps };
}

describe("chatTurn", () => {
  it("retrieves for the query, injects the block as the system message, answers and writes the turn back", async () => {
    const { memory, store, client, deps } = setup();
    const result = await chatTurn(deps, { scope: "ada", user: "What does Ada drink?", id: "turn-1" });

    expect(memory.calls.retrieve).toEqual([{ scope: "ada", query: { text: "What does Ada drink?" }, now: 42_000, policy: deps.policy }]);
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
    expect(result.answer).toBe("Green tea.");
    expect(memory.calls.writeBack).toEqual([
      { scope: "ada", user: "What does Ada drink?", assistant: "Green tea.", now: 42_000, id: "turn-1" },
    ]);
    expect(store.memories.at(-1)).toMatchObject({ kind: "episodic", createdAt: 42_000 });
    expect(result.requestTokens).toBeNull();
  });

  it("embeds the query, and the written-back turn, with the embedder's model when the policy ranks by embedding", async () => {
    const { memory, client, deps } = setup("embedding");
    await chatTurn({ ...deps, embedder: modelEmbedder(client, "nomic-embed-text") }, { scope: "ada", user: "tea?" });
    const stored = memory.turnText({ user: "tea?", assistant: "Green tea." });
    expect(client.embeds).toEqual([
      { model: "nomic-embed-text", input: ["tea?"] },
      { model: "nomic-embed-text", input: [stored] },
    ]);
    const query = memory.calls.retrieve[0]!.query;
    expect(query.embedding?.model).toBe("nomic-embed-text");
    expect(Array.from(query.embedding!.vector)).toEqual(Array.from(Float32Array.from(doubleEmbedding("tea?"))));
    const turn = memory.calls.writeBack[0]!;
    expect(turn.embedding?.model).toBe("nomic-embed-text");
    expect(Array.from(turn.embedding!.vector)).toEqual(Array.from(Float32Array.from(doubleEmbedding(stored))));
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
    const { memory, deps } = setup();
    const result = await chatTurn(
      {
        ...deps,
        rate: async (text) => ({ importance: text.length % 10, fallback: false, raw: "" }),
        countRequest: (messages) => memory.countRequest(null, messages),
      },
      { scope: "ada", user: "What does Ada drink?" },
    );
    expect(memory.calls.writeBack[0]!.importance).toBe("What does Ada drink?".length % 10);
    expect(result.importance?.importance).toBe("What does Ada drink?".length % 10);
    expect(result.requestTokens).toBe(memory.countRequest(null, result.messages));
  });

  it("spends no rating call when write-back is off, and the store keeps nothing", async () => {
    const { store, deps } = setup("words", false);
    let rated = 0;
    const before = store.memories.length;
    await chatTurn({ ...deps, rate: async () => ((rated += 1), { importance: 1, fallback: false, raw: "" }) }, { scope: "ada", user: "tea?" });
    expect(rated).toBe(0);
    expect(store.memories).toHaveLength(before);
  });
});

describe("usesEmbedding", () => {
  it("follows the policy's backend and per-section overrides of score-ordered sections", () => {
    expect(usesEmbedding(testPolicy("embedding"))).toBe(true);
    expect(usesEmbedding(testPolicy("words"))).toBe(false);
    const override = testPolicy("words");
    override.sections.episodic = { ...override.sections.episodic, score: { relevance: "embedding" } };
    expect(usesEmbedding(override)).toBe(true);
    const newestOnly = testPolicy("words");
    newestOnly.sections.working = { ...newestOnly.sections.working, score: { relevance: "embedding" } };
    expect(usesEmbedding(newestOnly)).toBe(false);
    expect(usesEmbedding({ ...override, mode: "pooled" })).toBe(false);
  });
});

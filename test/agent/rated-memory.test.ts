/**
 * RatedMemory, the one way the chat and the answer-level run write memories with the model in the
 * loop: every memory rated at write time, and reflection once the rated importance adds up.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { fullPolicy, type GemmaTokenizer, loadGemmaTokenizer, openStore } from "../../src/memory/index.js";
import type { NewMemory } from "../../src/memory/types.js";
import { RatedMemory } from "../../src/agent/rated-memory.js";
import type { ChatRequest } from "../../src/model/types.js";
import { isRatingPrompt } from "../harness/answers/double-answers.js";
import { useTempDir } from "../harness/temp-files.js";
import { scriptedClient } from "../model/scripted-client.js";

const temp = useTempDir("recollect-rated-");
let tokenizer: GemmaTokenizer;
beforeAll(async () => {
  tokenizer = await loadGemmaTokenizer();
});

const last = (r: ChatRequest) => r.messages.at(-1)!.content;
/** Rates "boring" memories 1 and the rest 7 (or not at all, for "shrug"); answers reflection prompts with one cited insight. */
function model() {
  return scriptedClient((r) => {
    if (isRatingPrompt(last(r))) return last(r).includes("shrug") ? "Hard to say." : last(r).includes("boring") ? "Rating: 1" : "Rating: 7";
    if (last(r).includes("most salient high-level questions")) return "1. What does Ada care about?";
    if (last(r).includes("high-level insights")) return "1. Ada cares about her garden (because of 1)";
    return "Noted.";
  });
}

const fact = (id: string, text: string, importance?: number): NewMemory => ({ id, scope: "ada", kind: "semantic", text, createdAt: 0, ...(importance === undefined ? {} : { importance }) });

function rated(client = model(), reflectionThreshold?: number, file = ":memory:") {
  const store = openStore(file, { tokenizer });
  const memory = new RatedMemory({ client, store, scope: "ada", policy: fullPolicy, model: "m", options: { seed: 2 }, importanceFallback: 4, ...(reflectionThreshold === undefined ? {} : { reflectionThreshold }) });
  return { client, store, memory };
}

describe("RatedMemory", () => {
  it("rates every memory through the model at write time, the rating replacing any importance given", async () => {
    const { client, store, memory } = rated();
    const stored = await memory.remember([fact("a", "Ada waters her garden", 9), fact("b", "a boring errand"), fact("c", "shrug")], 0);
    expect(stored.map((m) => [m.id, m.importance])).toEqual([["a", 7], ["b", 1], ["c", 4]]);
    expect(store.get("ada", "a")!.importance).toBe(7);
    expect(memory.importance).toEqual({ rated: 3, fallbacks: 1 });
    expect(client.chats.every((r) => r.options?.seed === 2)).toBe(true);
  });

  it("rates each chat turn it writes back", async () => {
    const { store, memory } = rated();
    const turn = await memory.turn({ user: "I planted roses.", id: "t1" }, 1000);
    expect(turn.importance).toMatchObject({ importance: 7, fallback: false });
    expect(store.get("ada", "t1")).toMatchObject({ kind: "episodic", importance: 7, createdAt: 1000 });
  });

  it("reflects once the rated importance reaches the threshold, then counts afresh", async () => {
    const { store, memory } = rated(model(), 14);
    await memory.remember([fact("a", "Ada waters her garden")], 0);
    expect(memory.reflections).toBe(0);
    await memory.remember([fact("b", "Ada prunes her roses")], 10);
    // 7 + 7 = 14: one reflection, one insight citing the memory it was shown first.
    expect(memory.reflections).toBe(1);
    expect(memory.insights).toHaveLength(1);
    const insight = store.get("ada", memory.insights[0]!.id)!;
    expect(insight).toMatchObject({ kind: "semantic", text: "Ada cares about her garden", createdAt: 10, importance: 7 });
    expect(insight.source).toMatch(/^reflection:/);
    // The insight's own 7 is not counted towards the next reflection; a new 7 alone is under 14.
    await memory.remember([fact("c", "Ada buys seeds")], 20);
    expect(memory.reflections).toBe(1);
  });

  it("never reflects without a threshold", async () => {
    const { client, memory } = rated(model());
    await memory.remember(Array.from({ length: 30 }, (_, i) => fact(`m${i}`, `Ada note ${i}`)), 0);
    expect(memory.reflections).toBe(0);
    expect(client.chats.some((r) => last(r).includes("high-level"))).toBe(false);
  });

  it("reopened on a store, starts from the importance written since the store's last insight", async () => {
    const file = temp.path("owed.sqlite");
    const first = rated(model(), 100, file);
    await first.memory.remember([fact("a", "Ada waters her garden"), fact("b", "Ada prunes her roses")], 0);
    first.store.close();
    // 14 owed; 14 + 7 reaches a threshold of 21.
    const second = rated(model(), 21, file);
    await second.memory.remember([fact("c", "Ada buys seeds")], 10);
    expect(second.memory.reflections).toBe(1);
    second.store.close();
    // After that insight nothing is owed: one more 7 stays under 21.
    const third = rated(model(), 21, file);
    await third.memory.remember([fact("d", "Ada plants tulips")], 20);
    expect(third.memory.reflections).toBe(0);
    third.store.close();
  });
});

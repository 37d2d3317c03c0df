import { describe, expect, it } from "vitest";
import { fullPolicy, perKindPreset } from "../../src/memory/presets.js";
import { retrieve } from "../../src/memory/retrieve.js";
import { DEFAULT_IMPORTANCE } from "../../src/memory/types.js";
import { writeBack } from "../../src/memory/write-back.js";
import { memoryStore, T0 } from "./helpers.js";

describe("writeBack", () => {
  it("stores a turn as an episodic memory that happened now", () => {
    const store = memoryStore();
    const m = writeBack(store, { scope: "u", user: "Which hotel?", assistant: "The Alfama one.", now: T0, id: "turn-1" }, fullPolicy);
    expect(m).toMatchObject({
      id: "turn-1",
      kind: "episodic",
      occurredAt: T0,
      createdAt: T0,
      lastAccessedAt: T0,
      text: "User asked: Which hotel? / Assistant answered: The Alfama one.",
      importance: DEFAULT_IMPORTANCE,
      source: "write-back",
      embedding: null,
      embeddingModel: null,
    });
    expect(store.get("u", "turn-1")).toEqual(m);
    const block = retrieve(store, { scope: "u", query: { text: "hotel" }, now: T0, policy: perKindPreset });
    expect(block.sections.find((s) => s.name === "episodic")?.kept).toEqual(["turn-1"]);
  });

  it("stores the user's words alone for a turn without an answer, with the turn's importance and embedding", () => {
    const store = memoryStore();
    const embedding = { model: "m", vector: [0.5, 0.25] };
    const m = writeBack(store, { scope: "u", user: "Which hotel?", now: T0, id: "turn-1", importance: 8, embedding }, fullPolicy);
    expect(m).toMatchObject({
      text: "User asked: Which hotel?",
      importance: 8,
      embedding: new Float32Array([0.5, 0.25]),
      embeddingModel: "m",
    });
  });

  it("returns null and stores nothing when the policy turns write-back off", () => {
    const store = memoryStore();
    expect(writeBack(store, { scope: "u", user: "hi", now: T0 }, { writeBack: false })).toBeNull();
    expect(store.size()).toBe(0);
  });
});

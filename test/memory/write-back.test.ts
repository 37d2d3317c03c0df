import { describe, expect, it } from "vitest";
import { fullPolicy, perKindPreset } from "../../src/memory/presets.js";
import { retrieve } from "../../src/memory/retrieve.js";
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
    });
    expect(store.get("u", "turn-1")).toEqual(m);
    const block = retrieve(store, { scope: "u", query: { text: "hotel" }, now: T0, policy: perKindPreset });
    expect(block.sections.find((s) => s.name === "episodic")?.kept).toEqual(["turn-1"]);
  });

  it("returns null and stores nothing when the policy turns write-back off", () => {
    const store = memoryStore();
    expect(writeBack(store, { scope: "u", user: "hi", now: T0 }, { writeBack: false })).toBeNull();
    expect(store.size()).toBe(0);
  });
});

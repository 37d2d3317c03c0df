import { describe, expect, it } from "vitest";
import { streamPreset } from "../../../src/memory/presets.js";
import { retrieve } from "../../../src/memory/retrieve.js";
import { memoryStore, T0 } from "../helpers.js";

const base = { scope: "u", kind: "semantic" as const, createdAt: T0 };

describe("embedding", () => {
  it("is the cosine between query and memory vectors; no vector gives 0", () => {
    const store = memoryStore();
    store.remember({ ...base, id: "a", text: "a", embedding: { model: "m", vector: [1, 1, 0] } });
    store.remember({ ...base, id: "b", text: "b" });
    const ranked = retrieve(store, { scope: "u", query: { text: "", embedding: { model: "m", vector: [1, 0, 0] } }, now: T0, policy: streamPreset }).sections[0].ranked;
    expect(ranked.find((r) => r.id === "a")?.rel).toBeCloseTo(Math.SQRT1_2, 6);
    expect(ranked.find((r) => r.id === "b")?.rel).toBe(0);
  });

  it("refuses a query embedded with another model than the stored memories", () => {
    const store = memoryStore();
    store.remember({ ...base, id: "a", text: "a", embedding: { model: "nomic-embed-text", vector: [1, 0] } });
    expect(() =>
      retrieve(store, { scope: "u", query: { text: "", embedding: { model: "mxbai-embed-large", vector: [1, 0] } }, now: T0, policy: streamPreset }),
    ).toThrow(/query embedded with "mxbai-embed-large" but memory a was embedded with "nomic-embed-text"/);
  });

  it("refuses a query vector of another size and a query without a vector", () => {
    const store = memoryStore();
    store.remember({ ...base, id: "a", text: "a", embedding: { model: "m", vector: [1, 0] } });
    expect(() =>
      retrieve(store, { scope: "u", query: { text: "", embedding: { model: "m", vector: [1, 0, 0] } }, now: T0, policy: streamPreset }),
    ).toThrow(/3 dimensions/);
    expect(() => retrieve(store, { scope: "u", query: { text: "a" }, now: T0, policy: streamPreset })).toThrow(/needs query.embedding/);
  });
});

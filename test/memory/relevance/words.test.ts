import { describe, expect, it } from "vitest";
import { pooledPreset } from "../../../src/memory/presets.js";
import { retrieve } from "../../../src/memory/retrieve.js";
import type { RetrievalPolicy } from "../../../src/memory/types.js";
import { memoryStore, T0 } from "../helpers.js";

const words = (stopwords?: boolean): RetrievalPolicy => ({
  ...pooledPreset,
  pooled: { ...pooledPreset.pooled, score: { weights: [1, 0, 0], relevance: "words", stopwords }, requireRelevance: true },
});

describe("words", () => {
  it("is the fraction of the query's distinct words the memory shares", () => {
    const store = memoryStore();
    store.remember({ id: "m", scope: "u", kind: "semantic", text: "Ana's flight to Rome, Rome!", createdAt: T0 });
    const [section] = retrieve(store, { scope: "u", query: { text: "Flight to Paris to Rome" }, now: T0, policy: words() }).sections;
    // Distinct query words: flight, to, paris, rome — three shared.
    expect(section.ranked[0].rel).toBe(3 / 4);
  });

  it("keeps stopwords by default and can drop them", () => {
    const store = memoryStore();
    store.remember({ id: "m", scope: "u", kind: "semantic", text: "the cat", createdAt: T0 });
    const request = { scope: "u", query: { text: "the dog" }, now: T0 };
    expect(retrieve(store, { ...request, policy: words() }).sections[0].ranked[0].rel).toBe(0.5);
    expect(retrieve(store, { ...request, policy: words(true) }).sections[0].ranked).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import type { NewMemory } from "../../../src/memory/index.js";
import { ScenarioVectors } from "../../../src/harness/runner/scenario-vectors.js";
import { SCENARIO_VECTOR_MODEL } from "../../../src/harness/scenario/timeline.js";

const written = (id: string, text: string, vector?: number[]): NewMemory => ({
  id,
  scope: "user",
  kind: "semantic",
  text,
  createdAt: 0,
  ...(vector === undefined ? {} : { embedding: { model: SCENARIO_VECTOR_MODEL, vector } }),
});

const table = new Map([
  ["The user drinks tea.", Float32Array.from([1, 0])],
  ["What does the user drink?", Float32Array.from([0.8, 0.6])],
]);

describe("ScenarioVectors", () => {
  describe("for a scenario that writes its own vectors", () => {
    it("gives each memory the vector it was written with, by id, as the timeline reaches it", () => {
      const vectors = new ScenarioVectors(true);
      const memory = { id: "tea", text: "The user drinks tea." };
      expect(vectors.memory(memory)).toBeNull();
      vectors.recordMemories([written("tea", "The user drinks tea.", [1, 0]), written("plain", "No vector here.")]);
      expect(vectors.memory(memory)).toEqual({ model: SCENARIO_VECTOR_MODEL, vector: [1, 0] });
      expect(vectors.memory({ id: "plain", text: "No vector here." })).toBeNull();
    });

    it("gives each question the vector it was asked with, by its text, and none to a text without one", () => {
      const vectors = new ScenarioVectors(true);
      vectors.recordQuery("What does the user drink?", [0.8, 0.6]);
      vectors.recordQuery("Asked without a vector", undefined);
      expect(vectors.query("What does the user drink?")).toEqual({ model: SCENARIO_VECTOR_MODEL, vector: [0.8, 0.6] });
      expect(vectors.query("Asked without a vector")).toBeUndefined();
      // A written-back question is a memory without a vector.
      expect(vectors.memory({ id: "turn:q", text: "User asked: What does the user drink?" })).toBeNull();
    });

    it("keeps to its own vectors even when a model's are at hand", () => {
      const vectors = new ScenarioVectors(true, { id: "use-lite", table });
      expect(vectors.memory({ id: "tea", text: "The user drinks tea." })).toBeNull();
      expect(vectors.query("What does the user drink?")).toBeUndefined();
    });
  });

  describe("for a scenario ranked by the trial's embedding model", () => {
    it("gives every memory and question the model's vector of its text, whatever was recorded", () => {
      const vectors = new ScenarioVectors(false, { id: "use-lite", table });
      vectors.recordMemories([written("tea", "The user drinks tea.", [9, 9])]);
      expect(vectors.memory({ id: "tea", text: "The user drinks tea." })).toEqual({ model: "use-lite", vector: table.get("The user drinks tea.") });
      expect(vectors.query("What does the user drink?")).toEqual({ model: "use-lite", vector: table.get("What does the user drink?") });
    });

    it("fails as a bug, naming the model and the text, when a text was not embedded before the run", () => {
      const vectors = new ScenarioVectors(false, { id: "use-lite", table });
      expect(() => vectors.query("A question nobody embedded")).toThrow(
        'no use-lite vector was prepared for the text "A question nobody embedded"; embeddedTexts() misses a text the trial embeds',
      );
    });
  });

  it("without a model, gives only what the scenario recorded", () => {
    const vectors = new ScenarioVectors(false);
    vectors.recordMemories([written("tea", "The user drinks tea.", [1, 0])]);
    expect(vectors.memory({ id: "tea", text: "The user drinks tea." })).toEqual({ model: SCENARIO_VECTOR_MODEL, vector: [1, 0] });
    expect(vectors.query("What does the user drink?")).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { packScenarios, ScenarioCache } from "../../../src/harness/runner/pack.js";
import { pricedLines } from "../../../src/harness/runner/priced-lines.js";
import { scenarioSchema } from "../../../src/harness/scenario/schema.js";

const scenario = (name: string, text: string) =>
  scenarioSchema.parse({
    name,
    description: "one memory, one ask",
    steps: [{ remember: { id: "m", kind: "semantic", text } }, { ask: { id: "q", query: "What?", expect: ["m"] } }],
  });
const A = scenario("a", "The user likes tea.");
const B = scenario("b", "The user likes coffee. Ünïcode ✓");
const length = { count: (text: string) => text.length };

describe("packScenarios", () => {
  it("puts every scenario in one shared buffer, and each comes back whole with its lines' counts", () => {
    const refs = packScenarios([{ spec: A, writeBack: false }, { spec: B, writeBack: true }], length);
    expect(refs.get("a")!.buffer).toBe(refs.get("b")!.buffer);
    expect(refs.get("a")!.buffer).toBeInstanceOf(SharedArrayBuffer);
    const cache = new ScenarioCache();
    for (const [spec, writeBack] of [[A, false], [B, true]] as const) {
      const { spec: back, tokens } = cache.get(refs.get(spec.name)!);
      expect(back).toEqual(JSON.parse(JSON.stringify(spec)));
      for (const line of pricedLines(spec, writeBack)) expect(tokens.count(line)).toBe(line.length);
    }
  });
});

describe("packScenarios with vectors", () => {
  const table = (entries: [string, number[]][]) => new Map(entries.map(([text, v]) => [text, Float32Array.from(v)]));
  // Two models of two dimensions for one scenario, one model for the other; values a float32 holds exactly and not.
  const vectorsA = new Map([
    ["use-lite", table([["The user likes tea.", [0.1, -2, 3.5]], ["What?", [1 / 3, 0, -0]]])],
    ["ollama:nomic-embed-text", table([["The user likes tea.", [1, 2, 3, 4, 5]]])],
  ]);
  const vectorsB = new Map([["use-lite", table([["The user likes coffee. Ünïcode ✓", [7, 8, 9]], ["What?", [1 / 3, 0, -0]]])]]);

  it("gives back each scenario's vectors per model, equal, as Float32Array views over the one SharedArrayBuffer", () => {
    const refs = packScenarios(
      [
        { spec: A, writeBack: false, vectors: vectorsA },
        { spec: B, writeBack: true, vectors: vectorsB },
      ],
      length,
    );
    const cache = new ScenarioCache();
    for (const [name, expected] of [["a", vectorsA], ["b", vectorsB]] as const) {
      const ref = refs.get(name)!;
      const { vectors } = cache.get(ref);
      expect([...vectors.keys()]).toEqual([...expected.keys()]);
      for (const [model, texts] of expected) {
        const got = vectors.get(model)!;
        expect([...got.keys()]).toEqual([...texts.keys()]);
        for (const [text, vector] of texts) {
          const view = got.get(text)!;
          expect(view).toBeInstanceOf(Float32Array);
          expect(Buffer.from(view.buffer, view.byteOffset, view.byteLength).equals(Buffer.from(vector.buffer))).toBe(true);
          // Read in place: a view over the shared buffer, not a copy.
          expect(view.buffer).toBe(ref.buffer);
          expect(view.buffer).toBeInstanceOf(SharedArrayBuffer);
          expect(view.byteOffset % 4).toBe(0);
          expect(view.byteOffset).toBeGreaterThanOrEqual(ref.vectorOffset);
        }
      }
    }
    // The scenario and its counts come back whole beside them.
    expect(cache.get(refs.get("b")!).spec).toEqual(JSON.parse(JSON.stringify(B)));
  });

  it("keeps each model's vectors apart, the same text under two models giving two vectors", () => {
    const refs = packScenarios([{ spec: A, writeBack: false, vectors: vectorsA }], length);
    const { vectors } = new ScenarioCache().get(refs.get("a")!);
    expect(Array.from(vectors.get("use-lite")!.get("The user likes tea.")!)).toEqual(Array.from(Float32Array.from([0.1, -2, 3.5])));
    expect(Array.from(vectors.get("ollama:nomic-embed-text")!.get("The user likes tea.")!)).toEqual([1, 2, 3, 4, 5]);
  });

  it("gives a scenario packed without vectors none, and packs a model with no texts", () => {
    const refs = packScenarios(
      [
        { spec: A, writeBack: false },
        { spec: B, writeBack: false, vectors: new Map([["use-lite", new Map()]]) },
      ],
      length,
    );
    const cache = new ScenarioCache();
    expect(cache.get(refs.get("a")!).vectors.size).toBe(0);
    expect(cache.get(refs.get("b")!).vectors.get("use-lite")!.size).toBe(0);
  });
});

describe("ScenarioCache", () => {
  it("decodes a scenario once while it stays among the most recent, and forgets another packing's", () => {
    const refs = packScenarios([A, B].map((spec) => ({ spec, writeBack: false })), length);
    const cache = new ScenarioCache(1);
    const first = cache.get(refs.get("a")!);
    expect(cache.get(refs.get("a")!)).toBe(first);
    cache.get(refs.get("b")!);
    expect(cache.get(refs.get("a")!)).not.toBe(first);
    const again = packScenarios([{ spec: A, writeBack: false }], length);
    const fromOther = cache.get(again.get("a")!);
    expect(cache.get(again.get("a")!)).toBe(fromOther);
  });
});

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

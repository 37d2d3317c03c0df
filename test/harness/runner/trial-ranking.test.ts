/**
 * Trials rank through the one bounded ranker, as chat and the bench do: they visit only the
 * memories that can place, yet still learn the rank of a gold memory far below the block.
 */
import { describe, expect, it, vi } from "vitest";
import { variationSchema } from "../../../src/harness/scenario/variation.js";
import { runPolicyTrial } from "./trials.js";
import { scenarioSchema, type ScenarioInput } from "../../../src/harness/scenario/schema.js";
import { fullPolicy } from "../../../src/memory/presets.js";
import type { SectionRanking } from "../../../src/memory/rank/section-ranking.js";
import type { TokenCounter } from "../../../src/memory/tokenizer.js";

const rankings = vi.hoisted(() => [] as SectionRanking[]);
vi.mock("../../../src/memory/rank/section-ranking.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../src/memory/rank/section-ranking.js")>();
  class Recorded extends original.SectionRanking {
    constructor(...args: ConstructorParameters<typeof original.SectionRanking>) {
      super(...args);
      rankings.push(this);
    }
  }
  return { ...original, SectionRanking: Recorded };
});

const words: TokenCounter = { count: (text) => text.split(/\s+/).filter(Boolean).length };

// Sixty facts written at once, importance 1 to 10 in turn, none sharing a word with the question:
// in the full policy facts do not decay, so a fact ranks by importance, then by id.
const FACTS = Array.from({ length: 60 }, (_, i) => ({
  id: `f${String(i).padStart(2, "0")}`,
  kind: "semantic" as const,
  text: `fact number ${i}`,
  importance: 1 + (i % 10),
}));
const SCENARIO = scenarioSchema.parse({
  name: "deep-gold",
  description: "a gold fact that ranks far below what the block can hold",
  steps: [{ remember: FACTS }, { advance: "1h" }, { ask: { id: "q", query: "Where is the station?", expect: ["f05"] } }],
} satisfies ScenarioInput);

describe("a trial's ranking", () => {
  const run = (detail: boolean) =>
    runPolicyTrial({ scenario: SCENARIO, ablation: "full", policy: fullPolicy, seed: 1, variation: variationSchema.parse({}), matchSource: false, detail }, words);

  it("goes through the bounded ranker, which visits fewer facts than the store holds, and still ranks a deep gold memory", async () => {
    rankings.length = 0;
    const [ask] = (await run(false)).asks;
    // 24 facts have importance 7 to 10; of the six at importance 6, f05 has the smallest id.
    expect(ask.ranks).toEqual([25]);
    // One ranking per section of the one retrieval.
    expect(rankings).toHaveLength(4);
    const semantic = rankings[1];
    expect(semantic.visited).toBeGreaterThan(0);
    expect(semantic.visited).toBeLessThan(FACTS.length);
  });

  it("records a deep gold memory's signals and the memories just above and below it", async () => {
    const [ask] = (await run(true)).asks;
    expect(ask.detail!.kept).not.toContain("f05");
    const gold = ask.detail!.gold[0];
    expect(gold).toMatchObject({ id: "f05", section: "semantic", rel: 0, rec: 1, imp: 0.6 });
    // Above it, the last two at importance 7 (f46, f56); below it, the next two at 6 by id.
    expect(gold.neighbours!.map((n) => [n.id, n.rank])).toEqual([
      ["f46", 23],
      ["f56", 24],
      ["f15", 26],
      ["f25", 27],
    ]);
  });
});

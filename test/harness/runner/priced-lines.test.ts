import { describe, expect, it } from "vitest";
import { fullPolicy } from "../../../src/memory/index.js";
import type { TokenCounter } from "../../../src/memory/tokenizer.js";
import { variationSchema } from "../../../src/harness/scenario/variation.js";
import { pricedLines } from "../../../src/harness/runner/priced-lines.js";
import { runPolicyTrial } from "./trials.js";
import { scenarioSchema } from "../../../src/harness/scenario/schema.js";

const SCENARIO = scenarioSchema.parse({
  name: "priced",
  description: "memories, a repeated text, distractors and two asks",
  pool: [
    { kind: "episodic", text: "The user walked the dog." },
    { kind: "semantic", text: "The user dislikes <loud> music." },
  ],
  steps: [
    { remember: [{ id: "a", kind: "semantic", text: "The user likes tea." }, { id: "b", kind: "episodic", text: "The user likes tea." }] },
    { advance: "1d" },
    { ask: { id: "q1", query: "What does the user like?", expect: ["a"] } },
    { remember: { id: "c", kind: "working", text: "# Call\nthe bank" } },
    { ask: { id: "q2", query: "Anything to do?", expect: ["c"] } },
  ],
});

/** Runs a trial with a counter that records every text the store prices. */
async function priced(writeBack: boolean): Promise<Set<string>> {
  const seen = new Set<string>();
  const recording: TokenCounter = { count: (text) => (seen.add(text), 1) };
  const variation = variationSchema.parse({ distractors: 2, shuffle: true, jitter: 0.2, importanceNoise: 1 });
  for (const seed of [1, 2, 3]) await runPolicyTrial({ scenario: SCENARIO, ablation: "x", policy: { ...fullPolicy, writeBack }, seed, variation, matchSource: false, detail: false }, recording);
  return seen;
}

describe("pricedLines", () => {
  it("lists each distinct line once: memories, then distractors, as the store renders them", () => {
    expect(pricedLines(SCENARIO, false)).toEqual([
      "- The user likes tea.",
      "- &#35; Call&#10;the bank",
      "- The user walked the dog.",
      "- The user dislikes &lt;loud&gt; music.",
    ]);
  });

  it("covers every line a trial prices, with and without write-back", async () => {
    for (const writeBack of [false, true]) {
      const lines = new Set(pricedLines(SCENARIO, writeBack));
      for (const text of await priced(writeBack)) expect(lines.has(text), text).toBe(true);
    }
    expect(pricedLines(SCENARIO, true)).toContain("- User asked: What does the user like?");
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fullPolicy, perKindPreset, streamPreset } from "../../../src/memory/index.js";
import { BUILT_IN_ABLATIONS, findAblation } from "../../../src/harness/policy/ablations.js";
import { describeChanges, describePolicy } from "../../../src/harness/policy/describe.js";
import { applyPatch } from "../../../src/harness/policy/patch.js";

const ablate = (name: string) => applyPatch(fullPolicy, findAblation(name)!.patch(fullPolicy));

describe("describePolicy", () => {
  it("states what every section effectively does, and touch and write-back", () => {
    const text = describePolicy(fullPolicy);
    expect(text).toContain("a section per kind (working: order newest first, at most 3 items, quota 32 tokens, fit stop;");
    expect(text).toContain("semantic: order by score, weights (rel, rec, imp) [1, 1, 1], relevance words, decay 1 per hour,");
    expect(text).toContain("episodic: order by score, weights (rel, rec, imp) [1, 1, 1], relevance words, decay 0.995 per hour,");
    expect(text.endsWith("touch on, write-back on")).toBe(true);
  });

  it("merges a section's own score settings over the policy's", () => {
    // The per-kind preset ranks facts by shared words alone, whatever the policy's weights.
    expect(describePolicy(perKindPreset)).toContain("semantic: order by score, weights (rel, rec, imp) [1, 0, 0], relevance words, at most 8 items");
    expect(describePolicy(streamPreset)).toContain("one pooled section (pooled: order by score");
  });
});

describe("describeChanges", () => {
  it("says exactly what each built-in ablation changes over the full policy", () => {
    const expected: Record<string, string> = {
      full: "no change",
      "relevance-only": "weights (rel, rec, imp) [1, 1, 1] → [1, 0, 0] in semantic, episodic, procedural",
      "recency-only": "weights (rel, rec, imp) [1, 1, 1] → [0, 1, 0] in semantic, episodic, procedural",
      "importance-only": "weights (rel, rec, imp) [1, 1, 1] → [0, 0, 1] in semantic, episodic, procedural",
      "no-decay": "decay 0.995 per hour → 1 per hour in episodic",
      "no-kind-decay": "decay 1 per hour → 0.995 per hour in semantic, procedural",
      "no-touch": "touch on → off",
      "no-write-back": "write-back on → off",
      bm25: "relevance words → bm25 in semantic, episodic, procedural",
    };
    for (const [name, text] of Object.entries(expected)) expect(describeChanges(fullPolicy, ablate(name)), name).toBe(text);
    expect(describeChanges(fullPolicy, ablate("pooled"))).toMatch(/^sections per-kind → pooled \(pooled: order by score, .*quota 168 tokens, fit skip\)$/);
  });

  it("ignores settings that take no effect, such as the base decay of kinds that all have their own", () => {
    // fullPolicy gives every scored kind its own rate; the base rate only reaches the working
    // section, which is ordered by time.
    expect(describeChanges(fullPolicy, applyPatch(fullPolicy, { score: { decayRate: 0.9 } }))).toBe("no change");
    expect(describeChanges(fullPolicy, applyPatch(fullPolicy, { pooled: { quota: 7 } }))).toBe("no change");
  });

  it("names a change of decay unit in words", () => {
    expect(describeChanges(fullPolicy, applyPatch(fullPolicy, { score: { unitMs: 86_400_000 } }))).toBe(
      "decay 1 per hour → 1 per day in semantic, procedural; decay 0.995 per hour → 0.995 per day in episodic",
    );
  });

  it("mentions every changed setting that takes effect, for random patches (generated, so it cannot contradict)", () => {
    const weight = fc.constantFrom(0, 0.5, 1, 2);
    fc.assert(
      fc.property(
        fc.record({ weights: fc.tuple(weight, weight, weight), touch: fc.boolean(), quota: fc.integer({ min: 0, max: 99 }) }),
        ({ weights, touch, quota }) => {
          const variant = applyPatch(fullPolicy, { score: { weights }, touch, sections: { episodic: { quota } } });
          const text = describeChanges(fullPolicy, variant);
          expect(text.includes("weights"), text).toBe(weights.join() !== "1,1,1");
          expect(text.includes("touch on → off"), text).toBe(!touch);
          expect(text.includes(`quota 64 tokens → ${quota} tokens in episodic`), text).toBe(quota !== 64);
          if (weights.join() === "1,1,1" && touch && quota === 64) expect(text).toBe("no change");
        },
      ),
      { numRuns: 200 },
    );
  });

  it("leaves the built-in ablations' notes free of settings, which could drift from the patch", () => {
    // Notes say why an ablation is run; a number there (other than in a name such as BM25) would
    // restate a setting.
    for (const ablation of BUILT_IN_ABLATIONS) expect(ablation.note, ablation.name).not.toMatch(/(?<!BM\d*)\d/);
  });
});

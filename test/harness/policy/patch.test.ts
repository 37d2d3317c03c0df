import { describe, expect, it } from "vitest";
import { fullPolicy } from "../../../src/memory/index.js";
import { applyPatch } from "../../../src/harness/policy/patch.js";

describe("applyPatch", () => {
  it("merges objects key by key and leaves the rest of the policy as it was", () => {
    const patched = applyPatch(fullPolicy, { score: { decayRate: 0.9 }, sections: { semantic: { quota: 10 } } });
    expect(patched.score).toEqual({ ...fullPolicy.score, decayRate: 0.9 });
    expect(patched.sections.semantic).toEqual({ ...fullPolicy.sections.semantic, quota: 10 });
    expect(patched.sections.episodic).toEqual(fullPolicy.sections.episodic);
    expect(patched.touch).toBe(fullPolicy.touch);
  });

  it("replaces arrays whole rather than merging them by index", () => {
    const patched = applyPatch(fullPolicy, { score: { weights: [0, 0, 1] } });
    expect(patched.score.weights).toEqual([0, 0, 1]);
  });

  it("merges a per-kind map key by key, so naming one kind keeps the others", () => {
    const patched = applyPatch(fullPolicy, { score: { kindDecay: { working: 0.5 } } });
    expect(patched.score.kindDecay).toEqual({ ...fullPolicy.score.kindDecay, working: 0.5 });
  });

  it("sets null values, such as an unbounded quota", () => {
    expect(applyPatch(fullPolicy, { pooled: { quota: null } }).pooled.quota).toBeNull();
  });

  it("returns a new policy and never changes the (frozen) preset it patched", () => {
    const before = structuredClone(fullPolicy);
    const patched = applyPatch(fullPolicy, { touch: false, score: { weights: [1, 0, 0] } });
    expect(fullPolicy).toEqual(before);
    const copy = applyPatch(fullPolicy, {});
    expect(copy).toEqual(fullPolicy);
    copy.score.weights[0] = 7;
    expect(fullPolicy.score.weights[0]).toBe(1);
    expect(patched).not.toBe(fullPolicy);
  });
});

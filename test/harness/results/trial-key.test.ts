import { describe, expect, it } from "vitest";
import { trialKey } from "../../../src/harness/results/trial-key.js";

describe("trialKey", () => {
  it("keys trials by scenario, ablation and seed", () => {
    expect(trialKey({ scenario: "a", ablation: "b", seed: 3 })).toBe(trialKey({ scenario: "a", ablation: "b", seed: 3 }));
    expect(trialKey({ scenario: "a", ablation: "b", seed: 3 })).not.toBe(trialKey({ scenario: "a", ablation: "b", seed: 4 }));
    expect(trialKey({ scenario: "a-b", ablation: "c", seed: 1 })).not.toBe(trialKey({ scenario: "a", ablation: "b-c", seed: 1 }));
  });
});

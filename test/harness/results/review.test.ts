import { describe, expect, it } from "vitest";
import { readResults } from "../../../src/harness/results/io.js";
import { headlineShifts, policyChanges, renderReview } from "../../../src/harness/results/review.js";
import type { ExperimentResults } from "../../../src/harness/results/types.js";

/** The committed core results against a copy in which the full system misses every gold memory of one scenario. */
const recorded = readResults("results/core.json")!;
const scenario = recorded.trials[0]!.scenario;
const fresh: ExperimentResults = structuredClone(recorded);
for (const trial of fresh.trials) {
  if (trial.ablation === "full" && trial.scenario === scenario) for (const ask of trial.asks) ask.ranks = ask.ranks.map(() => null);
}
fresh.experiment.ablations[0] = { ...fresh.experiment.ablations[0]!, policy: { ...fresh.experiment.ablations[0]!.policy!, touch: false } };

describe("headlineShifts", () => {
  const shifts = headlineShifts(recorded, fresh);
  const recall = shifts.find((s) => s.ablation === "full" && s.metric.startsWith("recall_any@"))!;

  it("pairs each ablation's headline metrics before and after, with Δ inside its interval", () => {
    expect(recall.diff).toBeLessThan(0);
    expect(recall.lo).toBeLessThanOrEqual(recall.diff);
    expect(recall.hi).toBeGreaterThanOrEqual(recall.diff);
    expect(recall.after - recall.before).toBeCloseTo(recall.diff, 12);
    expect(recall.changed).toBeGreaterThan(0);
  });

  it("reports no change for the ablations left as they were", () => {
    for (const s of shifts.filter((x) => x.ablation !== "full")) expect([s.diff, s.changed]).toEqual([0, 0]);
  });

  it("renders the changed rows, the unchanged ablations and the policy changes", () => {
    const lines = renderReview("core", shifts, policyChanges(recorded, fresh));
    expect(lines[0]).toBe("core: headline metrics, recorded → fresh (Δ with its 95% interval, per comparison):");
    expect(lines.some((l) => l.startsWith(`  full  ${recall.metric}  `))).toBe(true);
    const unchanged = lines.find((l) => l.startsWith("  unchanged: "))!.slice("  unchanged: ".length).split(", ");
    expect(unchanged).toEqual(recorded.experiment.ablations.map((a) => a.name).filter((name) => name !== "full"));
    expect(lines).toContain("core: policy changed: full: touch true → false");
  });
});

describe("policyChanges", () => {
  it("is empty for the same results, and names new and dropped ablations", () => {
    expect(policyChanges(recorded, recorded)).toEqual([]);
    const fewer = { ...recorded, experiment: { ...recorded.experiment, ablations: recorded.experiment.ablations.slice(1) } };
    expect(policyChanges(recorded, fewer)).toEqual([`${recorded.experiment.ablations[0]!.name}: no longer run`]);
    expect(policyChanges(fewer, recorded)).toEqual([`${recorded.experiment.ablations[0]!.name}: new`]);
  });
});

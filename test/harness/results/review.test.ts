import { describe, expect, it } from "vitest";
import { readResults } from "../../../src/harness/results/io.js";
import { headlineShifts, policyChanges, renderReview, toleranceVerdict, withinTolerance } from "../../../src/harness/results/review.js";
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

describe("withinTolerance", () => {
  it("holds when the whole interval lies within ±tolerance, bounds included", () => {
    expect(withinTolerance({ lo: -0.05, hi: 0.05, changed: 1 }, 0.05)).toBe(true);
    expect(withinTolerance({ lo: 0, hi: 0, changed: 1 }, 0)).toBe(true);
    expect(withinTolerance({ lo: -0.0501, hi: 0, changed: 1 }, 0.05)).toBe(false);
    expect(withinTolerance({ lo: 0, hi: 0.0501, changed: 1 }, 0.05)).toBe(false);
  });

  it("fails a small Δ whose interval is wide: a change that moves many asks both ways is not within it", () => {
    expect(withinTolerance({ lo: -0.2, hi: 0.21, changed: 1 }, 0.05)).toBe(false);
  });

  it("holds for a metric that changed on no ask, however wide the interval its few clusters allow", () => {
    expect(withinTolerance({ lo: -1, hi: 1, changed: 0 }, 0.05)).toBe(true);
    expect(withinTolerance({ lo: -1, hi: 1, changed: 1 }, 0.05)).toBe(false);
  });

  it("does not fail on binary rounding of a bound the reader sees as equal", () => {
    expect(0.7 - 0.75 < -0.05).toBe(true);
    expect(withinTolerance({ lo: 0.7 - 0.75, hi: 0, changed: 1 }, 0.05)).toBe(true);
  });
});

describe("toleranceVerdict", () => {
  const shifts = headlineShifts(recorded, fresh);
  const recall = shifts.find((s) => s.ablation === "full" && s.metric.startsWith("recall_any@"))!;

  it("tolerates a change whose every headline interval lies within the tolerance", () => {
    const wide = Math.max(...shifts.flatMap((s) => [Math.abs(s.lo), Math.abs(s.hi)]));
    expect(toleranceVerdict(recorded, fresh, shifts, wide)).toEqual({ tolerated: true });
  });

  it("names each shift outside it, with Δ and its interval", () => {
    const verdict = toleranceVerdict(recorded, fresh, shifts, Math.abs(recall.lo) / 2);
    expect(verdict.tolerated).toBe(false);
    expect(!verdict.tolerated && verdict.why).toMatch(new RegExp(`^outside ±[0-9.]+: full ${recall.metric} Δ −\\d\\.\\d{3} \\[−\\d\\.\\d{3}, [+−]\\d\\.\\d{3}\\]`));
  });

  it("never tolerates added or removed trials, or a changed sweep, whatever the tolerance", () => {
    const fewer = { ...fresh, trials: fresh.trials.slice(1) };
    expect(toleranceVerdict(recorded, fewer, headlineShifts(recorded, fewer), 1e9)).toEqual({
      tolerated: false,
      why: "trials or asks were added or removed, which no tolerance measures",
    });
    const swept = { ...fresh, sweep: { ...(recorded.sweep ?? ({} as NonNullable<ExperimentResults["sweep"]>)), foldSeed: -1 } };
    expect(toleranceVerdict(recorded, swept, shifts, 1e9)).toEqual({ tolerated: false, why: "the sweep changed, which no tolerance measures" });
    expect(toleranceVerdict(recorded, fresh, [], 1e9)).toEqual({ tolerated: false, why: "no headline metric could be paired before and after" });
  });

  it("marks each row of the review within or outside the tolerance", () => {
    const lines = renderReview("core", shifts, [], Math.abs(recall.lo) / 2);
    expect(lines.find((l) => l.startsWith(`  full  ${recall.metric}  `))).toMatch(/ {2}OUTSIDE ±[0-9.]+$/);
    expect(renderReview("core", shifts, [], 1e9).filter((l) => l.includes("±"))).toSatisfy((rows: string[]) => rows.length > 0 && rows.every((l) => l.endsWith("  within ±1000000000")));
  });
});

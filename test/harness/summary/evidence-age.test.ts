import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { AGE_BINS, ageBin, evidenceAgeDays, evidenceAgeRows } from "../../../src/harness/summary/evidence-age.js";
import { summarise } from "../../../src/harness/summary/summarise.js";
import { handMadeResults } from "../../report/charts/hand-made-results.js";

describe("evidenceAgeDays", () => {
  it("counts days from the newest expected memory to the ask", () => {
    expect(evidenceAgeDays({ hour: 72, expectHours: [0, 24] })).toBe(2);
    expect(evidenceAgeDays({ hour: 30, expectHours: [null, 24] })).toBe(0.25);
  });

  it("has no age for an ask whose evidence has no recorded time, or results that predate the field", () => {
    expect(evidenceAgeDays({ hour: 30, expectHours: [null] })).toBeUndefined();
    expect(evidenceAgeDays({ hour: 30 })).toBeUndefined();
  });
});

describe("ageBin", () => {
  it("puts an age in the first bin it is under: a day, a week, four weeks, a quarter, half a year", () => {
    expect([0, 0.99, 1, 6.9, 7, 27, 28, 90, 91, 181, 182, 2000].map(ageBin)).toEqual([
      "< 1 day",
      "< 1 day",
      "1–7 days",
      "1–7 days",
      "1–4 weeks",
      "1–4 weeks",
      "1–3 months",
      "1–3 months",
      "3–6 months",
      "3–6 months",
      "≥ 6 months",
      "≥ 6 months",
    ]);
    expect(AGE_BINS.at(-1)!.upTo).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("evidenceAgeRows", () => {
  const results = handMadeResults();
  const rows = evidenceAgeRows(results, "recall_any@1", { seed: 7, resamples: 200 });

  it("gives each ablation a mean per bin that has asks, bins in age order", () => {
    // The hand-made evidence is six hours old at the even asks and days old at the odd ones.
    expect([...new Set(rows.map((r) => r.bin))]).toEqual(["< 1 day", "1–7 days"]);
    expect(rows.filter((r) => r.bin === "< 1 day").map((r) => r.ablation)).toEqual(["full", "relevance-only", "no-decay"]);
  });

  it("means each ask's seeds first, over the asks of the bin, with the summary's interval", () => {
    const recent = rows.find((r) => r.bin === "< 1 day" && r.ablation === "full")!;
    // full ranks ask i at 1 + ((i + seed) % 2): asks 0, 2, 4 of coffee-timeline and 0, 2 of corrections are found by one seed of two.
    expect(recent.value).toMatchObject({ mean: 0.5, nItems: 5, n: 10, nClusters: 2 });
    expect(recent.value.lo).toBeLessThanOrEqual(0.5);
    expect(recent.value.hi).toBeGreaterThanOrEqual(0.5);
  });

  it("matches the summary's interval when every ask falls in one bin", () => {
    const old: ExperimentResults = structuredClone(results);
    for (const s of old.experiment.scenarios) for (const a of s.asks) a.expectHours = [0];
    const [row] = evidenceAgeRows(old, "coverage", { seed: 7, resamples: 200 }).filter((r) => r.ablation === "no-decay");
    const summary = summarise(old, { seed: 7, bootstrapResamples: 200, testResamples: 200 });
    const all = summary.rows.find((r) => r.metric === "coverage" && r.ablation === "no-decay" && r.group === "all")!;
    expect(row!.value.mean).toBeCloseTo(all.value.mean, 12);
    expect(row!.value.nItems).toBe(all.value.nItems);
  });

  it("is empty for results without the evidence's times", () => {
    const old: ExperimentResults = structuredClone(results);
    for (const s of old.experiment.scenarios) for (const a of s.asks) delete a.expectHours;
    expect(evidenceAgeRows(old, "recall_any@1", { seed: 7 })).toEqual([]);
  });
});

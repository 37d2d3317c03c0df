import { describe, expect, it } from "vitest";
import { countRepair, emptyImportStats, importStatsSchema, listedRepairs, REPAIRS, repairCount, repairSummary } from "../../../src/datasets/conversations/stats.js";

describe("import stats", () => {
  it("start at zero for every repair but those recorded only when needed, and parse back from the results", () => {
    const stats = emptyImportStats();
    expect(Object.keys(stats.repairs)).toEqual(REPAIRS.filter((r) => r.key !== "malformedEvidence").map((r) => r.key));
    expect(Object.values(stats.repairs).every((n) => n === 0)).toBe(true);
    expect(importStatsSchema.parse(JSON.parse(JSON.stringify(stats)))).toEqual(stats);
  });

  it("count repairs, quote the first five, and summarise only those made", () => {
    const stats = emptyImportStats();
    expect(repairSummary(stats)).toBe("no repairs");
    for (let i = 0; i < 7; i++) countRepair(stats, "emptyTurns", `c t${i}`);
    countRepair(stats, "askedAtTooEarly", "c q");
    expect(stats.repairs.emptyTurns).toBe(7);
    expect(stats.examples.emptyTurns).toEqual(["c t0", "c t1", "c t2", "c t3", "c t4"]);
    expect(repairSummary(stats)).toBe("repaired empty turns: 7 (skipped); askedAt earlier than the ask protocol allows: 1 (asked at the earliest time it allows)");
  });

  it("record a repair that is listed only when needed once the data needs it, so earlier results read the same", () => {
    const stats = emptyImportStats();
    expect(repairCount(stats, "malformedEvidence")).toBe(0);
    expect(listedRepairs(stats).map((r) => r.key)).not.toContain("malformedEvidence");
    countRepair(stats, "malformedEvidence", 'c q1: "D1:1; D3:18"');
    expect(stats.repairs.malformedEvidence).toBe(1);
    expect(listedRepairs(stats).map((r) => r.key)).toEqual(REPAIRS.map((r) => r.key));
    expect(importStatsSchema.parse(JSON.parse(JSON.stringify(stats)))).toEqual(stats);
    expect(repairSummary(stats)).toBe("repaired evidence that is not an id (such as several ids in one string): 1 (dropped)");
  });
});

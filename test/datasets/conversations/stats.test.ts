import { describe, expect, it } from "vitest";
import { countRepair, emptyImportStats, importStatsSchema, REPAIRS, repairSummary } from "../../../src/datasets/conversations/stats.js";

describe("import stats", () => {
  it("start at zero for every repair, and parse back from the results", () => {
    const stats = emptyImportStats();
    expect(Object.keys(stats.repairs)).toEqual(REPAIRS.map((r) => r.key));
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
});

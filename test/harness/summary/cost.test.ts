import { describe, expect, it } from "vitest";
import { costRows } from "../../../src/harness/summary/cost.js";
import { COST_TIMING, costResults } from "../../fixtures/cost-results.js";

const rowOf = (rows: ReturnType<typeof costRows>, name: string) => rows.find((r) => r.ablation === name)!;

describe("costRows", () => {
  const rows = costRows(costResults(), "coverage");

  it("has one row per ablation or system, in the experiment's order", () => {
    expect(rows.map((r) => r.ablation)).toEqual(["full", "recent-window", "bm25-py"]);
  });

  it("means the metric over every (ask, seed) where it applies", () => {
    // q3 requires nothing: its coverage is null, and left out.
    expect(rowOf(rows, "full").quality).toBeCloseTo(0.75, 10);
    expect(rowOf(rows, "recent-window").quality).toBeCloseTo(0.5, 10);
    // The skipped trial's asks count, as retrievals that returned nothing.
    expect(rowOf(rows, "bm25-py").quality).toBeCloseTo(0.5, 10);
    // recall_any@1 applies to every ask: each found its gold memory first once in three.
    for (const row of costRows(costResults(), "recall_any@1")) expect(row.quality, row.ablation).toBeCloseTo(1 / 3, 10);
  });

  it("means the tokens returned (the block when there is one, else the lines) and the line tokens, over every ask", () => {
    expect(rowOf(rows, "full")).toMatchObject({ returnedTokens: 52 / 3, lineTokens: 10 });
    expect(rowOf(rows, "recent-window")).toMatchObject({ returnedTokens: 70 / 3, lineTokens: 70 / 3 });
    expect(rowOf(rows, "bm25-py")).toMatchObject({ returnedTokens: 4, lineTokens: 4 });
  });

  it("counts the (ask, seed) pairs whose lines passed the budget a system was told", () => {
    expect(rowOf(rows, "recent-window")).toMatchObject({ budget: 20, overBudget: 4, asks: 6 });
  });

  it("counts nothing over budget for a system told none, and gives a policy no budget at all", () => {
    expect(rowOf(rows, "bm25-py")).toMatchObject({ budget: null, overBudget: 0 });
    expect(rowOf(rows, "full")).not.toHaveProperty("budget");
    expect(rowOf(rows, "full").overBudget).toBe(0);
  });

  it("counts the trials a failing system skipped, out of its trials", () => {
    expect(rows.map((r) => [r.ablation, r.skipped, r.trials])).toEqual([
      ["full", 0, 2],
      ["recent-window", 0, 2],
      ["bm25-py", 1, 2],
    ]);
  });

  it("carries the recording run's call latencies, and none when the run did not record them", () => {
    expect(rowOf(rows, "bm25-py")).toMatchObject({ write: COST_TIMING["bm25-py"]!.write, retrieve: COST_TIMING["bm25-py"]!.retrieve });
    const untimed = costRows(costResults({ timing: false }), "coverage");
    for (const row of untimed) {
      expect(row).not.toHaveProperty("write");
      expect(row).not.toHaveProperty("retrieve");
    }
  });

  it("gives 0 rather than nothing for an ablation without trials", () => {
    const results = costResults();
    results.trials = results.trials.filter((t) => t.ablation !== "bm25-py");
    expect(rowOf(costRows(results, "coverage"), "bm25-py")).toMatchObject({ quality: 0, returnedTokens: 0, lineTokens: 0, asks: 0, trials: 0, skipped: 0 });
  });
});

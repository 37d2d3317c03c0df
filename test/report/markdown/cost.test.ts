import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { summarise } from "../../../src/harness/summary/summarise.js";
import { renderCostTable } from "../../../src/report/markdown/cost.js";
import { EMPTY_CELL } from "../../../src/report/markdown/table.js";
import { costResults } from "../../fixtures/cost-results.js";

const summaryOf = (results: ExperimentResults) => summarise(results, { seed: 1, bootstrapResamples: 200, testResamples: 200 });

/** The table's header and body cells, trimmed, without the alignment row. */
function cells(markdown: string): { head: string[]; rows: string[][] } {
  const lines = markdown.split("\n").filter((line) => line.startsWith("|"));
  const split = (line: string) => line.slice(1, -1).split("|").map((c) => c.trim());
  return { head: split(lines[0]!), rows: lines.slice(2).map(split) };
}

describe("renderCostTable", () => {
  const results = costResults();
  const summary = summaryOf(results);
  const text = renderCostTable(results, summary);
  const { head, rows } = cells(text);

  it("introduces the table with the first headline metric", () => {
    expect(text.startsWith("Quality beside cost (`coverage`):\n\n|")).toBe(true);
  });

  it("has one row per ablation or system, the baseline marked, with quality, tokens, budget, latencies and skipped trials", () => {
    expect(head).toEqual([
      "Ablation or system",
      "coverage (mean)",
      "Tokens returned per ask",
      "Memory-line tokens per ask",
      "Over budget (asks × seeds)",
      "write p50 / p95 (ms)",
      "retrieve p50 / p95 (ms)",
      "Skipped trials",
    ]);
    expect(rows).toEqual([
      ["full (baseline)", "0.750", "17.3", "10.0", EMPTY_CELL, "0.12 / 0.30", "0.85 / 2.50", "0 of 2"],
      ["recent-window", "0.500", "23.3", "23.3", "4 of 6 (budget 20)", "0.01 / 0.02", "0.02 / 0.05", "0 of 2"],
      ["bm25-py", "0.500", "4.0", "4.0", EMPTY_CELL, "1.50 / 3.00", "12.3 / 40.0", "1 of 2"],
    ]);
  });

  it("explains the budget column and the skipped trials beneath the table", () => {
    expect(text).toContain("Systems are told the budget at every retrieval");
    expect(text).toContain("A skipped trial's system failed (run with `--on-system-error skip`); its asks are scored as retrievals that returned nothing.");
    expect(text).not.toContain("did not record them");
  });

  it("shows empty latency cells, and says why, when the run did not time its calls", () => {
    const untimed = costResults({ timing: false });
    const table = renderCostTable(untimed, summaryOf(untimed));
    for (const row of cells(table).rows) expect(row.slice(5, 7)).toEqual([EMPTY_CELL, EMPTY_CELL]);
    expect(table).toContain("compare them within this table only (this run did not record them).");
  });

  it("leaves out the budget and skipped columns, and their notes, when no system was told a budget or skipped a trial", () => {
    const plain: ExperimentResults = structuredClone(results);
    plain.experiment.ablations = plain.experiment.ablations.map(({ budget: _, ...rest }) => rest);
    plain.trials = plain.trials.map(({ skipped: _, ...rest }) => rest);
    const table = renderCostTable(plain, summaryOf(plain));
    expect(cells(table).head).not.toContain("Over budget (asks × seeds)");
    expect(cells(table).head).not.toContain("Skipped trials");
    expect(table).not.toContain("Systems are told the budget");
    expect(table).not.toContain("skipped trial");
  });

  it("is empty for an experiment without trials", () => {
    expect(renderCostTable({ ...results, trials: [] }, summary)).toBe("");
  });
});

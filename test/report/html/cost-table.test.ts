import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { summarise } from "../../../src/harness/summary/summarise.js";
import { costTable } from "../../../src/report/html/cost-table.js";
import { costResults } from "../../fixtures/cost-results.js";

const summaryOf = (results: ExperimentResults) => summarise(results, { seed: 1, bootstrapResamples: 200, testResamples: 200 });

/** Each body row's header cell and data cells, as text. */
function rowsOf(html: string): string[][] {
  return [...html.matchAll(/<tr data-ablation="[^"]*"[^>]*>(.*?)<\/tr>/g)].map(([, row]) =>
    [...row!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map(([, cell]) => cell!.replace(/<[^>]+>/g, "").trim()),
  );
}

describe("costTable", () => {
  const results = costResults();
  const summary = summaryOf(results);
  const html = costTable(results, summary);

  it("has the same columns as EVALUATION.md's cost table, every one always shown", () => {
    const head = [...html.matchAll(/<th scope="col">(.*?)<\/th>/g)].map(([, h]) => h);
    expect(head).toEqual([
      "ablation or system",
      "coverage (mean)",
      "tokens returned per ask",
      "memory-line tokens per ask",
      "over budget",
      "write p50 / p95 (ms)",
      "retrieve p50 / p95 (ms)",
      "skipped trials",
    ]);
  });

  it("gives one row per ablation or system, with its quality, tokens, budget, latencies and skipped trials", () => {
    expect(rowsOf(html)).toEqual([
      ["full baseline", "0.750", "17.3", "10.0", "–", "0.12 / 0.30", "0.85 / 2.50", "0 of 2"],
      ["recent-window", "0.500", "23.3", "23.3", "4 of 6 (budget 20)", "0.01 / 0.02", "0.02 / 0.05", "0 of 2"],
      ["bm25-py", "0.500", "4.0", "4.0", "–", "1.50 / 3.00", "12.3 / 40.0", "1 of 2"],
    ]);
  });

  it("marks the baseline's row for the page's script and its style", () => {
    expect(html).toContain('<tr data-ablation="full" data-baseline=""><th scope="row">full <span class="tag">baseline</span></th>');
    expect(html.match(/data-baseline/g)).toHaveLength(1);
  });

  it("shows a dash for latencies the run did not record", () => {
    const untimed = costResults({ timing: false });
    for (const row of rowsOf(costTable(untimed, summaryOf(untimed)))) expect(row.slice(5, 7)).toEqual(["–", "–"]);
  });

  it("escapes what it puts on the page", () => {
    const odd = structuredClone(results);
    odd.experiment.ablations[2]!.name = 'x"><script>';
    odd.trials = odd.trials.map((t) => (t.ablation === "bm25-py" ? { ...t, ablation: 'x"><script>' } : t));
    const page = costTable(odd, summaryOf(odd));
    expect(page).not.toContain("<script>");
    expect(page).toContain("x&quot;&gt;&lt;script&gt;");
  });

  it("is empty for an experiment without trials", () => {
    expect(costTable({ ...results, trials: [] }, summary)).toBe("");
  });
});

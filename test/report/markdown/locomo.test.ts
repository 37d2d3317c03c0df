import { describe, expect, it } from "vitest";
import { summarise } from "../../../src/harness/summary/summarise.js";
import { locomoSection } from "../../../src/report/markdown/locomo.js";
import { addAblation, syntheticResults } from "../../fixtures/synthetic-results.js";

function view(options: { locomo: boolean; reference: boolean }) {
  let results = syntheticResults();
  if (options.reference) results = addAblation(results, "relevance-only-bm25", "full");
  results = { ...results, experiment: { ...results.experiment, k: [5, 10] } };
  if (!options.locomo) results = { ...results, manifest: { ...results.manifest, datasets: [] } };
  return { results, summary: summarise(results, { seed: 1 }) };
}

describe("the LoCoMo section of EVALUATION.md", () => {
  it("is empty for experiments that did not read the LoCoMo file", () => {
    expect(locomoSection(undefined, view({ locomo: false, reference: true }))).toBe("");
  });

  it("states the source-matching setting and that importance is constant", () => {
    const text = locomoSection(undefined, view({ locomo: true, reference: false }));
    expect(text).toContain("does not count for its source turn (`matchSource: false`)");
    expect(text).toContain("every memory is unrated");
    // The categories are the experiment section's table; no section appears twice.
    expect(text).not.toContain("By category");
  });

  it("compares the BM25-only ablation with the published reference, metric by metric", () => {
    const { results, summary } = view({ locomo: true, reference: true });
    const text = locomoSection(undefined, { results, summary });
    const ours = summary.rows.find((r) => r.ablation === "relevance-only-bm25" && r.metric === "recall_any@5" && r.group === "all")!;
    const row = text.split("\n").find((line) => line.startsWith("| all 1–4") && line.includes("recall_any@5"))!;
    expect(row).toContain("0.512");
    expect(row).toContain(ours.value.mean.toFixed(3));
    // recall_all@5 is reported too; the reference's k = 10 row only when the experiment measured k = 10.
    expect(text).toContain("recall_all@5");
    expect(text).toContain("recall_any@10");
  });

  it("leaves out reference rows for metrics the experiment did not measure", () => {
    const { results } = view({ locomo: true, reference: true });
    const onlyFive = { ...results, experiment: { ...results.experiment, k: [5] } };
    const text = locomoSection(undefined, { results: onlyFive, summary: summarise(onlyFive, { seed: 1 }) });
    expect(text).not.toContain("recall_any@10");
    expect(text).toContain("recall_any@5");
  });
});

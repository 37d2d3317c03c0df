import { describe, expect, it } from "vitest";
import { findRow, summarise } from "../../../src/harness/summary/summarise.js";
import { renderAppendix } from "../../../src/report/markdown/appendix.js";
import { escapeMarkdown } from "../../../src/report/markdown/escape.js";
import { formatSignedInterval } from "../../../src/report/markdown/format.js";
import { syntheticResults } from "../../fixtures/synthetic-results.js";

describe("the appendix of an experiment", () => {
  const results = syntheticResults();
  const summary = summarise(results, { seed: 3 });
  const markdown = renderAppendix({ results, summary });
  const lines = markdown.split("\n");

  it("links back to EVALUATION.md and states the unit", () => {
    expect(markdown).toContain("[EVALUATION.md](../EVALUATION.md)");
    expect(markdown).toContain("asks (seeds averaged), clustered by scenario");
  });

  it("has every metric for every ablation, for all asks and each category", () => {
    for (const group of ["all asks", "category `temporal`", "category `multi-hop`", "category `single-hop`"]) {
      expect(markdown).toContain(`## Results: ${group}`);
    }
    const header = lines.find((l) => l.startsWith("| Letter | Ablation"))!;
    for (const metric of summary.metrics) expect(header).toContain(metric);
  });

  it("gives every comparison with the baseline its Holm family", () => {
    const c = findRow(summary, "no-touch", "mrr").vsBaseline!;
    const line = lines.find((l) => l.startsWith("| no-touch       | mrr "))!;
    expect(line).toContain(formatSignedInterval(c.diff));
    expect(line).toContain("all asks, other metrics");
  });

  it("lists each ablation with settings generated from its policy", () => {
    // As user text, each goes through the one markdown escaping function (its brackets escaped).
    for (const ablation of results.experiment.ablations) expect(markdown).toContain(escapeMarkdown(ablation.description));
    expect(markdown).toContain("- `no-touch`: touch on → off");
  });

  it("puts quality beside cost: tokens returned, memory-line tokens and both latencies", () => {
    const cost = markdown.slice(markdown.indexOf("## Cost"));
    expect(cost).toMatch(/^## Cost\n\nQuality beside cost \(`recall_any@1`\):/);
    for (const column of ["Tokens returned per ask", "Memory-line tokens per ask", "write p50 / p95 (ms)", "retrieve p50 / p95 (ms)"]) expect(cost).toContain(column);
  });

  it("holds the scenarios, the manifest and the rank changes, each once", () => {
    for (const heading of ["## Scenarios", "## Ablations", "## Manifest", "## Cost", "## Rank changes"]) {
      expect(lines.filter((l) => l === heading)).toHaveLength(1);
    }
    expect(markdown).toContain("### `touch-keeps-fact-alive` / `t3`");
    expect(markdown).toContain("(rival-");
  });

  it("ends in one newline, without trailing spaces", () => {
    expect(markdown).toMatch(/[^\n]\n$/);
    for (const line of lines) expect(line).not.toMatch(/[ \t]$/);
  });
});

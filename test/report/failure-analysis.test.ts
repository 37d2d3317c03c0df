import { describe, expect, it } from "vitest";
import { findRow, summarise } from "../../src/harness/summary.js";
import { scenarioSummary } from "../../src/harness/summary/by-scenario.js";
import { createFailureAnalysisReporter, fillFailureAnalysis } from "../../src/report/failure-analysis.js";
import { findFigureMarkers } from "../../src/report/markdown/figure-markers.js";
import { formatP, formatSignedInterval, formatWtl } from "../../src/report/markdown/format.js";
import type { ReportContext } from "../../src/report/reporter.js";
import { isUserError } from "../../src/shared/errors.js";
import { syntheticResults } from "../fixtures/synthetic-results.js";

const FAST = { seed: 3, bootstrapResamples: 300, testResamples: 2000 };
const OPEN =
  "<!-- figures experiment=synthetic ablation=no-touch scenario=touch-keeps-fact-alive metric=recall_any@1 -->";

const TEMPLATE = [
  "# Failure analysis",
  "",
  "## 1. Without touch, a fact used every day fades",
  "",
  "Hand-written prose stays as it is.",
  "",
  OPEN,
  "stale numbers that must go",
  "<!-- /figures -->",
  "",
  "The syntax, shown without being filled:",
  "",
  "```",
  "<!-- figures experiment=nope ablation=nope metric=nope -->",
  "```",
  "",
  "<!-- figures experiment=synthetic ablation=relevance-only metric=mrr -->",
  "<!-- /figures -->",
  "",
].join("\n");

function context(readExisting: (path: string) => string | undefined = () => undefined): ReportContext {
  const results = syntheticResults();
  return { results: [results], summaries: [summarise(results, FAST)], readExisting };
}

describe("FAILURE_ANALYSIS.md figures", () => {
  const ctx = context();
  const results = ctx.results[0];
  const filled = fillFailureAnalysis(TEMPLATE, ctx, { scenarioSummaries: FAST });

  it("keeps the prose and replaces what was between the markers", () => {
    expect(filled).toContain("Hand-written prose stays as it is.");
    expect(filled).not.toContain("stale numbers that must go");
    expect(filled).toContain(`${OPEN}\n\nMeasured: \`no-touch\``);
    expect(filled).toContain("<!-- figures experiment=nope ablation=nope metric=nope -->\n```");
    expect(filled.endsWith("\n")).toBe(true);
  });

  it("fills in the scenario's and all scenarios' comparison from the results", () => {
    const inScenario = findRow(scenarioSummary(results, "touch-keeps-fact-alive", FAST), "no-touch", "recall_any@1");
    const overall = findRow(ctx.summaries[0], "no-touch", "recall_any@1");
    const lines = filled.split("\n");
    const scenarioLine = lines.find((l) => l.startsWith("| scenario `touch-keeps-fact-alive`"))!;
    const allLine = lines.find((l) => l.startsWith("| all scenarios"))!;
    for (const [line, row] of [
      [scenarioLine, inScenario],
      [allLine, overall],
    ] as const) {
      const c = row.vsBaseline!;
      expect(line).toContain(formatSignedInterval(c.diff));
      expect(line).toContain(formatP(c.pHolm));
      expect(line).toContain(formatWtl(c));
      expect(line).toContain(row.value.mean.toFixed(3));
    }
    expect(inScenario.vsBaseline!.diff.n).toBe(18);
    expect(scenarioLine).toContain("\u2713");
  });

  it("lists the rank changes of that ablation in that scenario", () => {
    const changes = ctx.summaries[0].rankChanges.filter((c) => c.ablation === "no-touch");
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) {
      expect(filled).toMatch(new RegExp(`\\| \`${c.ask}\` +\\| \`${c.gold}\` +\\| +${c.baselineRank} \\| +${c.ablationRank} \\| ${c.movedBy}`));
    }
  });

  it("without a scenario, reports all scenarios and names the scenario of each rank change", () => {
    const block = filled.slice(filled.indexOf("ablation=relevance-only metric=mrr"));
    expect(block).not.toContain("| scenario `");
    expect(block).toContain("| all scenarios");
    expect(block).toContain("| `touch-keeps-fact-alive` | `t3`");
  });

  it("changes nothing when filled again", () => {
    expect(fillFailureAnalysis(filled, ctx, { scenarioSummaries: FAST })).toBe(filled);
  });

  it("ignores markers inside code fences", () => {
    expect(findFigureMarkers(TEMPLATE, "FAILURE_ANALYSIS.md").map((m) => m.ablation)).toEqual(["no-touch", "relevance-only"]);
  });
});

describe("FAILURE_ANALYSIS.md markers that do not match the results", () => {
  const ctx = context();
  const fill = (marker: string) =>
    fillFailureAnalysis(`# Title\n\nprose\n\n${marker}\n<!-- /figures -->\n`, ctx, { scenarioSummaries: FAST });

  it.each([
    ["experiment=missing ablation=no-touch metric=mrr", /unknown experiment "missing"/],
    ["experiment=synthetic ablation=no-such metric=mrr", /unknown ablation "no-such".*"no-touch"/],
    ["experiment=synthetic ablation=no-touch metric=recall@9", /unknown metric "recall@9"/],
    ["experiment=synthetic ablation=no-touch scenario=elsewhere metric=mrr", /unknown scenario "elsewhere"/],
    ["experiment=synthetic ablation=full metric=mrr", /"full" is the baseline/],
    ["experiment=synthetic ablation=no-touch", /"metric" is missing/],
    ["experiment=synthetic ablation=no-touch metric=mrr colour=red", /unknown key "colour"/],
  ])("%s is an error naming the marker", (attributes, problem) => {
    const marker = `<!-- figures ${attributes} -->`;
    let error: unknown;
    try {
      fill(marker);
    } catch (caught) {
      error = caught;
    }
    expect(isUserError(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toMatch(problem);
    expect(message).toContain("FAILURE_ANALYSIS.md: line 5:");
    expect(message).toContain(marker);
  });

  it("refuses an unclosed marker", () => {
    expect(() =>
      fillFailureAnalysis("<!-- figures experiment=synthetic ablation=no-touch metric=mrr -->\ntext\n", ctx),
    ).toThrow(/line 1: no closing <!-- \/figures -->/);
  });
});

describe("the failure-analysis reporter", () => {
  it("fills the existing file", async () => {
    const ctx = context((path) => (path === "FAILURE_ANALYSIS.md" ? TEMPLATE : undefined));
    const files = await createFailureAnalysisReporter({ scenarioSummaries: FAST }).render(ctx);
    expect(files).toHaveLength(1);
    expect(files[0].path).toBe("FAILURE_ANALYSIS.md");
    expect(files[0].content).toBe(fillFailureAnalysis(TEMPLATE, ctx, { scenarioSummaries: FAST }));
  });

  it("returns nothing when there is no file to fill", async () => {
    expect(await createFailureAnalysisReporter().render(context())).toEqual([]);
  });
});

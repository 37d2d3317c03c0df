import { describe, expect, it } from "vitest";
import { adjustedPLabel, adjustmentName } from "../../src/harness/summary/adjustment.js";
import { readFileSync } from "node:fs";
import { findRow, summarise } from "../../src/harness/summary/summarise.js";
import { failureAnalysisReporter, fillFailureAnalysis } from "../../src/report/failure-analysis.js";
import { findFigureMarkers } from "../../src/report/markdown/figure-markers.js";
import { formatP, formatSignedInterval, formatWtl } from "../../src/report/markdown/format.js";
import type { ReportContext } from "../../src/report/reporter.js";
import { isRecollectError } from "../../src/shared/errors.js";
import { syntheticResults } from "../fixtures/synthetic-results.js";
import { withSweep } from "../fixtures/sweep-results.js";
import { handMadeResults, handMadeSummary } from "./charts/hand-made-results.js";

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
  return { results: [results], summaries: [summarise(results, FAST)], findings: [], readExisting };
}

describe("FAILURE_ANALYSIS.md figures", () => {
  const ctx = context();
  const results = ctx.results[0];
  const filled = fillFailureAnalysis(TEMPLATE, ctx);

  it("keeps the prose and replaces what was between the markers", () => {
    expect(filled).toContain("Hand-written prose stays as it is.");
    expect(filled).not.toContain("stale numbers that must go");
    expect(filled).toContain(`${OPEN}\n\nDesigned failure (unit: seed, as in EVALUATION.md): \`no-touch\``);
    expect(filled).toContain("<!-- figures experiment=nope ablation=nope metric=nope -->\n```");
    expect(filled.endsWith("\n")).toBe(true);
  });

  it("quotes the scenario's designed failure and the comparison over all asks, as EVALUATION.md tests them", () => {
    const claim = ctx.summaries[0].designedFailures.find((c) => c.scenario === "touch-keeps-fact-alive" && c.ablation === "no-touch")!;
    const overall = findRow(ctx.summaries[0], "no-touch", "recall_any@1");
    const lines = filled.split("\n");
    const claimLine = lines[lines.findIndex((l) => l.startsWith("| Seeds")) + 2];
    expect(claimLine).toContain(formatSignedInterval(claim.diff));
    expect(claimLine).toContain(formatP(claim.pHolm));
    expect(claimLine).toContain(formatWtl(claim));
    const allLine = lines[lines.findIndex((l) => l.startsWith("| no-touch")) + 2];
    const c = overall.vsBaseline!;
    expect(allLine).toContain(formatSignedInterval(c.diff));
    expect(allLine).toContain(formatP(c.pHolm));
    expect(allLine).toContain(formatWtl(c));
    expect(filled).toContain(`${adjustmentName(c)} family "${c.family}"`);
    expect(filled).toContain(`| ${adjustedPLabel(c)} |`);
  });

  it("lists the rank changes of that ablation in that scenario", () => {
    const changes = ctx.summaries[0].rankChanges.filter((c) => c.ablation === "no-touch");
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) {
      const movedBy = c.movedBy.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      expect(filled).toMatch(new RegExp(`\\| \`${c.ask}\` +\\| \`${c.gold}\` +\\| +${c.baselineRank} \\| +${c.ablationRank} \\| ${movedBy}`));
    }
  });

  it("without a scenario, reports all asks and names the scenario of each rank change", () => {
    const block = filled.slice(filled.indexOf("ablation=relevance-only metric=mrr"));
    expect(block).not.toContain("Designed failure");
    expect(block).toContain("Over all asks of `results/synthetic.json`");
    expect(block).toContain("| `touch-keeps-fact-alive` | `t3`");
  });

  it("changes nothing when filled again", () => {
    expect(fillFailureAnalysis(filled, ctx)).toBe(filled);
  });

  it("ignores markers inside code fences", () => {
    expect(findFigureMarkers(TEMPLATE, "FAILURE_ANALYSIS.md").map((m) => m.ablation)).toEqual(["no-touch", "relevance-only"]);
  });
});

describe("FAILURE_ANALYSIS.md markers that do not match the results", () => {
  const ctx = context();
  const fill = (marker: string) =>
    fillFailureAnalysis(`# Title\n\nprose\n\n${marker}\n<!-- /figures -->\n`, ctx);

  it.each([
    ["experiment=missing ablation=no-touch metric=mrr", /unknown experiment "missing"/],
    ["experiment=synthetic ablation=no-such metric=mrr", /unknown ablation "no-such".*"no-touch"/],
    ["experiment=synthetic ablation=no-touch metric=recall@9", /unknown metric "recall@9"/],
    ["experiment=synthetic ablation=no-touch scenario=elsewhere metric=mrr", /unknown scenario "elsewhere"/],
    ["experiment=synthetic ablation=full metric=mrr", /"full" is the baseline/],
    [
      "experiment=synthetic ablation=no-touch scenario=touch-keeps-fact-alive metric=mrr",
      /scenario "touch-keeps-fact-alive" does not claim that "no-touch" fails on "mrr"/,
    ],
    ["experiment=synthetic ablation=no-touch", /"metric" is missing/],
    ["experiment=synthetic ablation=no-touch metric=mrr colour=red", /unknown key "colour"/],
    ["experiment=synthetic kind=sweep", /experiment "synthetic" has no sweep/],
    ["experiment=synthetic kind=sweep metric=mrr", /a sweep block names its experiment alone/],
    ["experiment=synthetic kind=chart", /unknown kind "chart"/],
  ])("%s is an error naming the marker", (attributes, problem) => {
    const marker = `<!-- figures ${attributes} -->`;
    let error: unknown;
    try {
      fill(marker);
    } catch (caught) {
      error = caught;
    }
    expect(isRecollectError(error)).toBe(true);
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

describe("FAILURE_ANALYSIS.md sweep figures", () => {
  it("quote the held-out choice, its comparisons and every fold of the named experiment's sweep", () => {
    const results = withSweep();
    const ctx: ReportContext = { results: [results], summaries: [handMadeSummary(handMadeResults())], findings: [], readExisting: () => undefined };
    const filled = fillFailureAnalysis("# Title\n\n<!-- figures experiment=timeline-demo kind=sweep -->\n<!-- /figures -->\n", ctx);
    expect(filled).toContain("Held-out score of the choice: 1.000 [1.000, 1.000]");
    expect(filled).toContain("The folds chose `weights [1, 0.5, 0], unitMs 1d` (2 of 2). Chosen on every ask: `weights [1, 0.5, 0], unitMs 1d` (point `p005`)");
    expect(filled).toMatch(/\| `relevance-only` \|/);
    expect(filled).toMatch(/\| Fold \| Held out +\| Chosen/);
  });
});

describe("the failure-analysis reporter", () => {
  it("fills the existing file", async () => {
    const ctx = context((path) => (path === "FAILURE_ANALYSIS.md" ? TEMPLATE : undefined));
    const files = await failureAnalysisReporter.render(ctx);
    expect(files).toHaveLength(1);
    expect(files[0].path).toBe("FAILURE_ANALYSIS.md");
    expect(files[0].content).toBe(fillFailureAnalysis(TEMPLATE, ctx));
  });

  it("returns nothing when there is no file to fill", async () => {
    expect(await failureAnalysisReporter.render(context())).toEqual([]);
  });
});

describe("the committed FAILURE_ANALYSIS.md and EVALUATION.md", () => {
  // One comparison, one verdict: every designed failure quoted in FAILURE_ANALYSIS.md carries the
  // p-values of its row in EVALUATION.md's designed-failures table.
  const evaluation = readFileSync("EVALUATION.md", "utf8");
  const analysis = readFileSync("FAILURE_ANALYSIS.md", "utf8");
  const claims = [...analysis.matchAll(/<!-- figures experiment=(\S+) ablation=(\S+) scenario=(\S+) metric=(\S+) -->([\s\S]*?)<!-- \/figures -->/g)];

  it("quotes designed failures", () => {
    expect(claims.length).toBeGreaterThanOrEqual(3);
  });

  it.each(claims.map((m) => [`${m[2]} on ${m[3]}`, m] as const))("%s has the same p and p (Holm) in both files", (_, match) => {
    const [, , ablation, scenario, metric, block] = match;
    const quoted = block.split("\n").find((l) => /^\| +\d+ \|/.test(l))!.split("|").map((c) => c.trim());
    const row = evaluation
      .split("\n")
      .find((l) => l.startsWith(`| \`${scenario}\``) && l.includes(`| \`${ablation}\``) && l.includes(`| ${metric} `))!
      .split("|")
      .map((c) => c.trim());
    // Quoted: seeds, then the claim's cells; EVALUATION.md: scenario, ablation, metric, then the same cells.
    expect(quoted.slice(2, 9)).toEqual(row.slice(4, 11));
  });
});

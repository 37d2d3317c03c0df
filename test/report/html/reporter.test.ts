import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { MAX_DRILL_DOWN_ASKS } from "../../../src/report/html/drill-down.js";
import { htmlReporter } from "../../../src/report/html/reporter.js";
import type { ReportContext } from "../../../src/report/reporter.js";
import { handMadeResults, handMadeSummary } from "../charts/hand-made-results.js";

function context(results: ExperimentResults = handMadeResults()): ReportContext {
  return { results: [results], summaries: [handMadeSummary(results)], findings: [], readExisting: () => undefined };
}

async function page(results?: ExperimentResults): Promise<string> {
  const [file, ...rest] = await htmlReporter.render(context(results));
  expect(rest).toEqual([]);
  expect(file!.path).toBe("reports/index.html");
  return String(file!.content);
}

describe("htmlReporter", () => {
  it("is registered as \"html\" and writes one page", async () => {
    expect(htmlReporter.name).toBe("html");
    expect(await page()).toMatch(/^<!DOCTYPE html>/);
  });

  it("is byte-identical on a second run: no dates, no random ids", async () => {
    expect(await page()).toBe(await page());
  });

  it("needs nothing from the network: no external scripts, styles or links", async () => {
    const html = await page();
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    // vega, vega-lite and the drawing script are inline.
    expect(html).toContain("vegaLite");
    expect(html.length).toBeLessThan(3_000_000);
  });

  it("escapes every text taken from the results", async () => {
    const html = await page();
    expect(html).toContain("What did I say about &lt;b&gt;tea&lt;/b&gt; &amp; &quot;coffee&quot;");
    expect(html).toContain("&lt;a test of escaping&gt;");
    expect(html).not.toContain("<b>tea</b>");
    expect(html).not.toContain("<a test of escaping>");
  });

  it("closes every script element it opens", async () => {
    const html = await page();
    const opened = html.match(/<script\b/gi)!.length;
    expect(html.match(/<\/script>/gi)!.length).toBe(opened);
    // Three library/driver scripts plus one JSON island per chart.
    expect(opened).toBe(3 + 4);
  });

  it("has a summary table per group with intervals, letters and differences from the baseline", async () => {
    const html = await page();
    expect(html.match(/<table class="summary">/g)).toHaveLength(3); // all, single-hop, temporal
    expect(html).toContain('<span class="letter">b</span> relevance-only');
    expect(html).toContain('<sup class="beats"');
    expect(html).toMatch(/Δ [+-]?\d\.\d{3}/);
  });

  it("has one drill-down per ask with kept ids, gold ranks and breakdowns for every ablation and seed", async () => {
    const html = await page();
    expect(html.match(/<details class="ask">/g)).toHaveLength(9);
    const start = html.indexOf('<details class="ask">');
    const first = html.slice(start, html.indexOf("</details>", start));
    expect(first.match(/<tr><th scope="row">/g)).toHaveLength(3 * 2);
    expect(first).toContain("<mark");
    expect(first).toMatch(/rel 0\.900 · rec 1\.000 · imp 0\.500/);
  });

  it("shows a chart container per chart, each pointing at its embedded spec", async () => {
    const html = await page();
    const containers = [...html.matchAll(/<div class="chart" id="([^"]+)" data-chart="([^"]+)" data-spec="([^"]+)">/g)];
    expect(containers.map((m) => m[2])).toEqual(["metrics", "rank-change", "recall-over-time", "breakdown"]);
    for (const [, , , spec] of containers) expect(html).toContain(`<script type="application/json" id="${spec}">`);
  });

  it("caps the drill-downs of a large benchmark and says where the rest are", async () => {
    const results = handMadeResults();
    const scenario = results.experiment.scenarios[0]!;
    scenario.asks = Array.from({ length: MAX_DRILL_DOWN_ASKS + 5 }, (_, i) => ({ ...scenario.asks[0]!, id: `q${i}` }));
    const html = await page(results);
    expect(html.match(/<details class="ask">/g)).toHaveLength(MAX_DRILL_DOWN_ASKS);
    expect(html).toContain(`first ${MAX_DRILL_DOWN_ASKS} of ${MAX_DRILL_DOWN_ASKS + 5 + 3} asks`);
    expect(html).toContain("results/timeline-demo.json");
  });
});

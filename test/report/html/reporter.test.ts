import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { drillData, MAX_DRILL_DOWN_ASKS } from "../../../src/report/html/drill-down.js";
import { htmlReporter } from "../../../src/report/html/reporter.js";
import type { ReportContext } from "../../../src/report/reporter.js";
import { handMadeResults, handMadeSummary } from "../charts/hand-made-results.js";

function context(results: ExperimentResults = handMadeResults(), findings: ReportContext["findings"] = []): ReportContext {
  return { results: [results], summaries: [handMadeSummary(results)], findings, readExisting: () => undefined };
}

async function page(results?: ExperimentResults, findings?: ReportContext["findings"]): Promise<string> {
  const [file, ...rest] = await htmlReporter.render(context(results, findings));
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
    // Vega and the drawing script are inline; the charts arrive compiled, so Vega-Lite stays out.
    expect(html).toContain("vega.View");
    expect(html).not.toContain("vegaLite");
    expect(html.length).toBeLessThan(1_000_000);
  });

  it("carries a Content-Security-Policy that allows exactly its own inline scripts and style, first in <head>", async () => {
    const html = await page();
    const meta = html.match(/<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
    expect(meta).not.toBeNull();
    const policy = meta![1]!.replaceAll("&#39;", "'");
    expect(policy).toMatch(/^default-src 'none'; /);
    const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => hash(m[1]!));
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => hash(m[1]!));
    expect(scripts).toHaveLength(2);
    expect(policy).toContain(`script-src ${scripts.join(" ")} 'unsafe-eval';`);
    expect(policy).toContain(`style-src ${styles.join(" ")};`);
    expect(html).not.toMatch(/ style="/);
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
    // Vega and the driver script, one JSON island per chart and one for the asks.
    expect(opened).toBe(2 + 8 + 1);
  });

  it("has a summary table per group with intervals, letters and differences from the baseline", async () => {
    const html = await page();
    expect(html.match(/<table class="summary">/g)).toHaveLength(3); // all, single-hop, temporal
    expect(html).toContain('<span class="letter">b</span> relevance-only');
    expect(html).toContain('<sup class="beats"');
    expect(html).toMatch(/Δ [+-]?\d\.\d{3}/);
  });

  it("groups the drill-downs by scenario, then ask, each folded", async () => {
    const html = await page();
    const scenarios = [...html.matchAll(/<details class="scenario" data-scenario="([^"]+)"/g)].map((m) => m[1]);
    expect(scenarios).toEqual(["coffee-timeline", "corrections"]);
    expect(html.match(/<details class="ask"/g)).toHaveLength(9);
    const corrections = html.slice(html.indexOf('data-scenario="corrections"'));
    expect(corrections.match(/<details class="ask"/g)).toHaveLength(3);
    expect(html).not.toMatch(/<details[^>]* open/);
  });

  it("carries, per ask, what every ablation and seed kept, ranked and scored, for the page to draw on opening", () => {
    const data = drillData(handMadeResults());
    expect(data.ablations).toEqual(["full", "relevance-only", "no-decay"]);
    const ask = data.scenarios[0]!.asks[0]!;
    expect(ask.rows).toHaveLength(3 * 2);
    const [kept, ranks, gold, coverage] = ask.rows[0]!;
    expect(kept).toContain("t-m1");
    expect(ranks).toEqual([2]);
    expect(gold).toEqual([["t-m1", "episodic", 0.9, 1, 0.5, 2.4]]);
    expect(coverage).toBe(1);
  });

  it("renders descriptions as markdown with raw HTML shown as text", async () => {
    const results = handMadeResults();
    results.experiment.description = "Uses `code`, *emphasis* and <script>alert(1)</script> [a link](javascript:alert(1)).";
    results.experiment.ablations[1]!.description = "weights `[1, 0, 0]`";
    const html = await page(results);
    expect(html).toContain("Uses <code>code</code>, <em>emphasis</em> and &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain("<td>weights <code>[1, 0, 0]</code></td>");
  });

  it("renders hostile descriptions without images, headings or live outside links", async () => {
    const results = handMadeResults();
    const hostile = "# Forged\n\n![i](http://127.0.0.1:9/img.png) [docs](http://127.0.0.1:9/docs)";
    results.experiment.description = hostile;
    results.experiment.ablations[1]!.description = hostile;
    for (const scenario of results.experiment.scenarios) scenario.description = hostile;
    const html = await page(results);
    expect(html).not.toMatch(/<img\b/);
    expect(html).not.toContain("<h1>Forged");
    expect(html).not.toContain('href="http://127.0.0.1');
    expect(html.match(/<p># Forged<\/p>/g)).toHaveLength(1 + results.experiment.scenarios.length);
    expect(html).toContain('docs (<code class="url">http://127.0.0.1:9/docs</code>)');
  });

  it("opens with a Findings box holding the generated sentences, only when there are some", async () => {
    expect(await page()).not.toContain('class="findings"');
    expect(await page(undefined, [{ experiment: "timeline-demo", sentences: [] }])).not.toContain('class="findings"');
    const html = await page(undefined, [
      { experiment: "timeline-demo", sentences: ["`no-decay` loses **0.2** on recall_any@1.", "<b>raw</b> stays text."] },
    ]);
    const box = html.slice(html.indexOf('<section class="findings"'), html.indexOf("</section>"));
    expect(html.indexOf('class="findings"')).toBeLessThan(html.indexOf('class="experiment"'));
    expect(box).toContain("<h2 id=\"findings-title\">Findings</h2>");
    expect(box).toContain("<li><code>no-decay</code> loses <strong>0.2</strong> on recall_any@1.</li>");
    expect(box).toContain("<li>&lt;b&gt;raw&lt;/b&gt; stays text.</li>");
  });

  it("offers filters by ablation, scenario and category, and marks what they act on", async () => {
    const html = await page();
    const form = html.slice(html.indexOf('<form class="filters"'), html.indexOf("</form>"));
    for (const filter of ["ablation", "scenario", "category"]) expect(form).toContain(`data-filter="${filter}"`);
    expect(form).toContain('<option value="no-decay">no-decay</option>');
    expect(form).toContain('<option value="corrections">corrections</option>');
    expect(form).toContain('<option value="temporal">temporal</option>');
    expect(html).toContain('<tr data-ablation="full" data-baseline="">');
    expect(html).toContain('<details class="group" data-category="temporal">');
  });

  it("shows a chart container per chart, each pointing at its embedded spec", async () => {
    const html = await page();
    const containers = [...html.matchAll(/<div class="chart" id="([^"]+)" data-chart="([^"]+)" data-spec="([^"]+)">/g)];
    expect(containers.map((m) => m[2])).toEqual(["forest", "metrics", "recall-at-k", "categories", "evidence-age", "cost", "rank-change", "breakdown"]);
    for (const [, , , spec] of containers) expect(html).toContain(`<script type="application/json" id="${spec}">`);
  });

  it("caps the drill-downs of a large benchmark and says where the rest are", async () => {
    const results = handMadeResults();
    const scenario = results.experiment.scenarios[0]!;
    scenario.asks = Array.from({ length: MAX_DRILL_DOWN_ASKS + 5 }, (_, i) => ({ ...scenario.asks[0]!, id: `q${i}` }));
    // These asks have no trials behind them; without the evidence's times no chart needs their results.
    for (const s of results.experiment.scenarios) for (const a of s.asks) delete a.expectHours;
    const html = await page(results);
    expect(html.match(/<details class="ask"/g)).toHaveLength(MAX_DRILL_DOWN_ASKS);
    expect(html).toContain(`first ${MAX_DRILL_DOWN_ASKS} of ${MAX_DRILL_DOWN_ASKS + 5 + 3} asks`);
    expect(html).toContain("results/timeline-demo.json");
  });
});

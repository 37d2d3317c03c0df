import { createHash } from "node:crypto";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { type DrillData, drillData } from "../../../src/report/html/drill-down.js";
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

/** The page of the hand-made results, rendered once: most tests below read it, and none changes it. */
let plain: Promise<string> | undefined;
const plainPage = () => (plain ??= page());

/** What the page's script reads for one experiment, unpacked as the browser does. */
interface PageData {
  charts: { $schema?: string; marks?: unknown[] }[];
  asks: DrillData;
  notes: string[];
  groups: string[];
}

function packedData(html: string, index = 0): PageData {
  const block = html.match(new RegExp(`<script type="text/plain" id="data--${index}" data-packing="zlib base64">([^<]*)</script>`));
  expect(block, `data block ${index}`).not.toBeNull();
  return JSON.parse(inflateSync(Buffer.from(block![1]!, "base64")).toString("utf8")) as PageData;
}

describe("htmlReporter", () => {
  it("is registered as \"html\" and writes one page", async () => {
    expect(htmlReporter.name).toBe("html");
    expect(await plainPage()).toMatch(/^<!DOCTYPE html>/);
  });

  it("is byte-identical on a second run: no dates, no random ids", async () => {
    expect(await page()).toBe(await plainPage());
  });

  it("needs nothing from the network: no external scripts, styles or links", async () => {
    const html = await plainPage();
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    // Vega and the drawing script are inline; the charts arrive compiled, so Vega-Lite stays out.
    expect(html).toContain("vega.View");
    expect(html).not.toContain("vegaLite");
    expect(html.length).toBeLessThan(1_000_000);
  });

  it("carries a Content-Security-Policy that allows exactly its own inline scripts and style, first in <head>", async () => {
    const html = await plainPage();
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

  it("escapes every text taken from the results; queries travel only in the packed data, which the page draws as text", async () => {
    const html = await plainPage();
    expect(html).toContain("&lt;a test of escaping&gt;");
    expect(html).not.toContain("<b>tea</b>");
    expect(html).not.toContain("<a test of escaping>");
    const { asks } = packedData(html);
    expect(asks.scenarios[0]!.asks[1]!.query).toBe('What did I say about <b>tea</b> & "coffee" on day 2?');
  });

  it("closes every script element it opens", async () => {
    const html = await plainPage();
    const opened = html.match(/<script\b/gi)!.length;
    expect(html.match(/<\/script>/gi)!.length).toBe(opened);
    // Vega, the driver script and the experiment's packed data.
    expect(opened).toBe(2 + 1);
  });

  it("has a summary table per group with intervals, letters and differences from the baseline; the categories' tables travel packed, folded", async () => {
    const html = await plainPage();
    expect(html.match(/<table class="summary">/g)).toHaveLength(1); // all asks
    expect(html).toContain('<span class="letter">b</span> relevance-only');
    expect(html).toContain('<sup class="beats"');
    expect(html).toMatch(/Δ [+-]?\d\.\d{3}/);
    const folded = [...html.matchAll(/<details class="group" data-category="([^"]+)" data-group="(\d+)"><summary>[^<]*<\/summary><\/details>/g)];
    expect(folded.map((m) => [m[1], m[2]])).toEqual([["single-hop", "0"], ["temporal", "1"]]);
    const { groups } = packedData(html);
    expect(groups).toHaveLength(2);
    for (const table of groups) expect(table).toMatch(/^<div class="table-wrap"><table class="summary">[\s\S]*Δ [+-]?\d\.\d{3}/);
  });

  it("opens each cell's p-values on a tap or click, not on hover: every cell is a button pointing at its note", async () => {
    const html = await plainPage();
    const { notes, groups } = packedData(html);
    const indices = [...[html, ...groups].join("\n").matchAll(/<button type="button" class="cell" data-note="(\d+)">/g)].map((m) => Number(m[1]));
    expect(indices).toEqual(notes.map((_, i) => i));
    expect(html).not.toMatch(/<td title=/);
    const comparison = notes.find((n) => n.startsWith("no-decay · recall_any@1 · all asks: "));
    expect(comparison).toMatch(/\d+ asks, \d+ independent units; Δ \[-?\d\.\d{3}, -?\d\.\d{3}\], p = [\d.e-]+, (Holm|Westfall–Young) p = [\d.e-]+ \(family: [^)]+\).*; wins\/ties\/losses over asks \d+\/\d+\/\d+$/);
    expect(notes.find((n) => n.startsWith("full · recall_any@1 · category temporal: "))).toMatch(/asks, \d+ independent units$/);
    // One panel shows the note of the tapped cell, outside every table.
    expect(html).toContain('<div class="note" role="status" aria-live="polite" hidden><p></p><button type="button" data-close>Close</button></div>');
  });

  it("leaves the asks to the page's script: a pager and an empty list, with the scenarios' descriptions as templates", async () => {
    const results = handMadeResults();
    results.experiment.scenarios[0]!.description = "About *coffee*.";
    results.experiment.scenarios[1]!.description = "";
    const html = await page(results);
    expect(html).not.toMatch(/<details class="ask"/);
    expect(html).toContain('<div class="ask-list"></div>');
    expect(html).toMatch(/<nav class="pager" aria-label="Pages of the asks of timeline-demo">[\s\S]*data-step="-1"[\s\S]*<select data-page><\/select>[\s\S]*data-step="1"/);
    expect(html).toContain('<template data-about="0"><p>About <em>coffee</em>.</p>\n</template>');
    expect(html).not.toContain('data-about="1"');
  });

  it("packs every ask of a benchmark, however many, so that paging and the filters reach them all", async () => {
    const results = handMadeResults();
    const scenario = results.experiment.scenarios[0]!;
    scenario.asks = Array.from({ length: 1_536 }, (_, i) => ({ ...scenario.asks[0]!, id: `q${i}`, category: i % 2 === 0 ? "temporal" : "single-hop" }));
    // These asks have no trials behind them; without the evidence's times no chart needs their results.
    for (const s of results.experiment.scenarios) for (const a of s.asks) delete a.expectHours;
    const { asks } = packedData(await page(results));
    expect(asks.scenarios.map((s) => s.asks.length)).toEqual([1_536, 3]);
    expect(asks.scenarios[0]!.asks.at(-1)).toMatchObject({ id: "q1535", category: "single-hop" });
    expect(asks.scenarios[0]!.asks[0]!.rows).toHaveLength(3 * 2);
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
    expect(await plainPage()).not.toContain('class="findings"');
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
    const html = await plainPage();
    const form = html.slice(html.indexOf('<form class="filters"'), html.indexOf("</form>"));
    for (const filter of ["ablation", "scenario", "category"]) expect(form).toContain(`data-filter="${filter}"`);
    expect(form).toContain('<option value="no-decay">no-decay</option>');
    expect(form).toContain('<option value="corrections">corrections</option>');
    expect(form).toContain('<option value="temporal">temporal</option>');
    expect(html).toContain('<tr data-ablation="full" data-baseline="">');
    expect(html).toContain('<details class="group" data-category="temporal" data-group="1">');
  });

  it("shows a box per chart, each pointing at its spec, compiled to Vega, in the packed data", async () => {
    const html = await plainPage();
    const containers = [...html.matchAll(/<div class="chart" id="([^"]+)" data-chart="([^"]+)" data-spec="(\d+)">/g)];
    expect(containers.map((m) => m[2])).toEqual(["forest", "metrics", "recall-at-k", "categories", "evidence-age", "cost", "rank-change", "breakdown"]);
    const { charts } = packedData(html);
    expect(containers.map((m) => Number(m[3]))).toEqual(charts.map((_, i) => i));
    for (const spec of charts) {
      expect(spec.$schema).toMatch(/vega\/v\d/);
      expect(spec.$schema).not.toMatch(/vega-lite/);
    }
  });
});

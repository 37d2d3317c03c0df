import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { summarise } from "../../../src/harness/summary/summarise.js";
import { htmlReporter } from "../../../src/report/html/reporter.js";
import { handMadeResults } from "../charts/hand-made-results.js";

/** Debian's chromium package; the test never downloads a browser. */
const CHROMIUM = "/usr/bin/chromium";
const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** Screenshots for a person to look at; the folder is not committed. */
const SCREENSHOTS = "reports/screenshots";
/** The window the report must fit without scrolling sideways. */
const WIDTH = 1280;

const haveChromium = existsSync(CHROMIUM);
// In CI a missing browser is a broken setup and must fail; on a developer's machine it may skip.
const runIt = haveChromium || Boolean(process.env.CI);
const title = haveChromium || process.env.CI
  ? "opens from file://, draws every chart, fits a 1,280 px window and filters, with no errors or network requests"
  : `opens from file:// and draws every chart (skipped: ${CHROMIUM} is missing; apt-get install chromium)`;

/**
 * Descriptions as a hostile user would write them, each trying to fetch, run, navigate or forge
 * a section. Every fetch points at a closed local port, so a test that failed would fetch nothing.
 */
const HOSTILE = [
  "# Forged heading",
  "Forged setext\n===",
  "![i](http://127.0.0.1:9/img.png)",
  "[the results](http://127.0.0.1:9/link) and <http://127.0.0.1:9/autolink>",
  "[ref]\n\n[ref]: http://127.0.0.1:9/reference",
  '<img src="http://127.0.0.1:9/raw.png"><iframe src="http://127.0.0.1:9/frame"></iframe>',
  "<script>window.pwned = 1</script><style>@import url(http://127.0.0.1:9/style.css)</style>",
  '<base href="http://127.0.0.1:9/"><meta http-equiv="refresh" content="0; url=http://127.0.0.1:9/refresh">',
  '<svg><image href="http://127.0.0.1:9/svg.png"/></svg><link rel="stylesheet" href="http://127.0.0.1:9/link.css">',
  "---\n\n| forged | table |\n| - | - |\n| 1 | 2 |",
].join("\n\n");

/**
 * Elements that stick out past the window's right edge at this width, outside every scroll box:
 * the page itself must never scroll sideways; wide tables and charts scroll inside their own box.
 */
function overflowingElements(width: number): string[] {
  const scrolls = (node: Element) => ["auto", "scroll"].includes(getComputedStyle(node).overflowX);
  const found: string[] = [];
  for (const node of document.body.querySelectorAll("*")) {
    const box = node.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5) continue;
    let inside = false;
    for (let parent = node.parentElement; parent !== null && parent !== document.body; parent = parent.parentElement) {
      if (scrolls(parent)) inside = true;
    }
    if (!inside) found.push(`${node.tagName.toLowerCase()}.${node.className} ends at ${Math.round(box.right)} px`);
  }
  return found;
}

describe("the HTML report in a browser", () => {
  const folder = mkdtempSync(join(tmpdir(), "recollect-report-"));
  let browser: Browser | undefined;
  const launch = async () => (browser ??= await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS }));

  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it.runIf(runIt)(title, async () => {
    if (!haveChromium) throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium package`);
    const results = handMadeResults();
    // A description as long as a real one and as many metrics as LoCoMo's, to prove that text
    // wraps and tables scroll in their boxes instead of widening the page.
    results.experiment.description += ` ${"a-very-long-unbroken-identifier-".repeat(12)}`;
    results.experiment.k = [1, 3, 5, 10, 25, 50];
    const [file] = await htmlReporter.render({
      results: [results],
      summaries: [summarise(results, { seed: 1 })],
      findings: [{ experiment: "timeline-demo", sentences: ["`no-decay` loses on recall_any@1.", "The second sentence."] }],
      readExisting: () => undefined,
    });
    const path = join(folder, file!.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file!.content);

    const page = await (await launch()).newPage({ viewport: { width: WIDTH, height: 900 } });
    const consoleErrors: string[] = [];
    const pageErrors: string[] = [];
    const failedRequests: string[] = [];
    const offlineRequests: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("requestfailed", (request) => failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on("request", (request) => {
      if (!/^(file|data|about):/.test(request.url())) offlineRequests.push(request.url());
    });

    await page.goto(pathToFileURL(path).href);
    await page.waitForFunction(() =>
      [...document.querySelectorAll(".chart")].every((chart) => chart.hasAttribute("data-rendered")),
    );

    const charts = await page.$$eval(".chart", (nodes) =>
      nodes.map((n) => ({
        name: n.getAttribute("data-chart"),
        state: n.getAttribute("data-rendered"),
        drawn: n.querySelector("svg, canvas") !== null,
        text: n.textContent ?? "",
      })),
    );
    expect(charts.map((c) => c.name)).toEqual(["forest", "metrics", "recall-at-k", "categories", "evidence-age", "cost", "rank-change", "breakdown"]);
    for (const chart of charts) {
      expect(chart, chart.name ?? "").toMatchObject({ state: "true", drawn: true });
      expect(chart.text.length, `${chart.name} has axis text`).toBeGreaterThan(0);
    }

    // The Findings box comes first, its markdown rendered.
    expect(await page.locator("main > section").first().getAttribute("class")).toBe("findings");
    expect(await page.locator("section.findings li code").first().textContent()).toBe("no-decay");

    // Tooltips: hovering a mark puts its values where Vega's built-in handler shows them.
    const point = page.locator('.chart[data-chart="metrics"] .mark-symbol path').first();
    await point.hover();
    const tooltip = () =>
      page.$eval('.chart[data-chart="metrics"]', (chart) =>
        [chart, ...chart.querySelectorAll("[title]")].map((n) => n.getAttribute("title") ?? "").join(" "),
      );
    await expect.poll(tooltip).toMatch(/mean: \d/);

    // Asks are grouped by scenario: open a scenario, then an ask, which draws what each ablation kept.
    const scenario = page.locator('details.scenario[data-scenario="coffee-timeline"]');
    await scenario.locator(":scope > summary").click();
    const ask = scenario.locator("details.ask").nth(1);
    await ask.locator("summary").click();
    expect(await ask.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await expect.poll(() => ask.locator("table.drill").isVisible()).toBe(true);
    // The query arrives as text, never as markup.
    expect(await ask.locator("summary").textContent()).toContain("<b>tea</b>");
    expect(await ask.locator("summary b").count()).toBe(0);
    expect(await ask.locator("table.drill tbody tr").count()).toBe(3 * 2);
    expect(await ask.locator("table.drill mark").count()).toBeGreaterThan(0);
    await page.locator('details.group[data-category="temporal"] > summary').click();

    // At 1,280 px nothing is wider than the window outside a scroll box, and the page never scrolls sideways.
    expect(await page.evaluate(overflowingElements, WIDTH)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
    await page.mouse.wheel(400, 0);
    expect(await page.evaluate(() => window.scrollX)).toBe(0);
    // The wide tables scroll inside their boxes, with the ablation column pinned.
    const pinned = await page.locator("table.summary tbody th[scope=row]").first().evaluate((th) => getComputedStyle(th).position);
    expect(pinned).toBe("sticky");
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, "report-1280.png"), fullPage: true });

    // The filters: one ablation (the baseline stays for comparison), one scenario, one category.
    const visibleRows = (selector: string) =>
      page.$$eval(selector, (rows) => rows.filter((r) => (r as HTMLElement).offsetParent !== null).map((r) => r.getAttribute("data-ablation")));
    await page.selectOption('select[data-filter="ablation"]', "no-decay");
    expect(new Set(await visibleRows("table.summary tbody tr"))).toEqual(new Set(["full", "no-decay"]));
    expect(await visibleRows("table.drill tbody tr")).toEqual(["full", "full", "no-decay", "no-decay"]);

    await page.selectOption('select[data-filter="scenario"]', "corrections");
    expect(await page.locator('details.scenario[data-scenario="coffee-timeline"]').isVisible()).toBe(false);
    const corrections = page.locator('details.scenario[data-scenario="corrections"]');
    expect(await corrections.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);

    await page.selectOption('select[data-filter="category"]', "temporal");
    const askCategories = await corrections.locator("details.ask").evaluateAll((asks) =>
      asks.filter((a) => (a as HTMLElement).offsetParent !== null).map((a) => a.getAttribute("data-category")),
    );
    expect(askCategories).toEqual(["temporal"]);
    expect(await page.locator('details.group[data-category="single-hop"]').isVisible()).toBe(false);
    expect(await page.locator('details.group[data-category="temporal"]').isVisible()).toBe(true);

    await page.selectOption('select[data-filter="ablation"]', "");
    await page.selectOption('select[data-filter="scenario"]', "");
    await page.selectOption('select[data-filter="category"]', "");
    expect(await page.locator("details.scenario").evaluateAll((s) => s.filter((d) => (d as HTMLElement).offsetParent !== null).length)).toBe(2);
    await page.screenshot({ path: join(SCREENSHOTS, "report-1280-top.png") });

    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(failedRequests).toEqual([]);
    expect(offlineRequests).toEqual([]);
  });
  it.runIf(runIt)(
    haveChromium || process.env.CI
      ? "with hostile experiment, ablation, scenario and conversation descriptions, loads nothing but itself and shows no forged heading, image or outside link"
      : `loads nothing but itself with hostile descriptions (skipped: ${CHROMIUM} is missing)`,
    async () => {
      if (!haveChromium) throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium package`);
      const results = handMadeResults();
      results.experiment.description = HOSTILE;
      for (const ablation of results.experiment.ablations) ablation.description = HOSTILE.replaceAll("\n\n", " ");
      // A conversation's description opens the description of the scenario made from it.
      for (const scenario of results.experiment.scenarios) scenario.description = `Conversation c1. ${HOSTILE}`;
      const [file] = await htmlReporter.render({
        results: [results],
        summaries: [summarise(results, { seed: 1 })],
        findings: [{ experiment: "timeline-demo", sentences: [HOSTILE.replaceAll("\n\n", " ")] }],
        readExisting: () => undefined,
      });
      const path = join(folder, "hostile", file!.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file!.content);
      const documentUrl = pathToFileURL(path).href;

      const page = await (await launch()).newPage({ viewport: { width: WIDTH, height: 900 } });
      const requests: string[] = [];
      const pageErrors: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      page.on("pageerror", (error) => pageErrors.push(error.message));
      // Whatever slipped past the policy would still go nowhere: only the page itself may load.
      await page.route("**/*", (route) => (route.request().url() === documentUrl ? route.continue() : route.abort()));
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { violations: string[] }).violations = seen;
        document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
      });

      await page.goto(documentUrl);
      await page.waitForFunction(() =>
        [...document.querySelectorAll(".chart")].every((chart) => chart.hasAttribute("data-rendered")),
      );
      // Open every scenario and ask, so that what the page draws on demand is loaded too.
      for (const summary of await page.locator("details > summary").all()) await summary.click();
      await page.locator('.chart[data-chart="metrics"] .mark-symbol path').first().hover();

      const policy = await page.getAttribute('head > meta[http-equiv="Content-Security-Policy"]', "content");
      expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[^;]+'; style-src 'sha256-[^;]+'; base-uri 'none'; form-action 'none'$/);
      expect(await page.$$eval(".chart", (charts) => charts.map((c) => c.getAttribute("data-rendered")))).toEqual(Array(8).fill("true"));

      const headings = await page.$$eval("h1, h2, h3, h4, h5, h6", (nodes) => nodes.map((n) => n.textContent ?? ""));
      expect(headings.filter((text) => /forged/i.test(text))).toEqual([]);
      expect(await page.locator("h1").count()).toBe(1);
      const count = (selector: string) => page.locator(selector).count();
      expect(await count("img, iframe, image, hr, body link, body base, body meta, body style")).toBe(0);
      expect(await count("th:text-is('forged')")).toBe(0);
      const links = await page.$$eval("a", (nodes) => nodes.map((n) => n.getAttribute("href") ?? ""));
      expect(links.filter((href) => !href.startsWith("#"))).toEqual([]);
      // The hostile targets are shown to the reader, never followed.
      expect(await page.locator("section.experiment > .description code.url").allTextContents()).toEqual([
        "http://127.0.0.1:9/img.png",
        "http://127.0.0.1:9/link",
        "http://127.0.0.1:9/autolink",
        "http://127.0.0.1:9/reference",
      ]);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();

      expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(requests).toEqual([documentUrl]);
      await page.close();
    },
  );
});

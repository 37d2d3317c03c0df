import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Locator } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { recordedResultFiles, resultsFile } from "../../../src/cli/commands/pipeline.js";
import { readResults } from "../../../src/harness/results/io.js";
import { summarise } from "../../../src/harness/summary/summarise.js";
import { HTML_REPORT_PATH } from "../../../src/report/paths.js";
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

/** Every chart drawn (or failed, saying so) and every experiment's asks listed. */
function drawn(): boolean {
  return (
    [...document.querySelectorAll(".chart")].every((chart) => chart.hasAttribute("data-rendered")) &&
    [...document.querySelectorAll(".asks")].every((asks) => asks.hasAttribute("data-ready"))
  );
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
    await page.waitForFunction(drawn);

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

    // Asks are listed by scenario: open an ask, which draws what each ablation kept.
    expect(await page.locator(".asks .scenario").evaluateAll((heads) => heads.map((h) => h.getAttribute("data-scenario")))).toEqual([
      "coffee-timeline",
      "corrections",
    ]);
    expect(await page.locator(".asks .pager .range").textContent()).toBe("Asks 1–9 of 9");
    const ask = page.locator('details.ask[data-ask="0:1"]');
    await ask.locator("summary").click();
    expect(await ask.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await expect.poll(() => ask.locator("table.drill").isVisible()).toBe(true);
    // The query arrives as text, never as markup.
    expect(await ask.locator("summary").textContent()).toContain("<b>tea</b>");
    expect(await ask.locator("summary b").count()).toBe(0);
    expect(await ask.locator("table.drill tbody tr").count()).toBe(3 * 2);
    expect(await ask.locator("table.drill mark").count()).toBeGreaterThan(0);
    // A category's table arrives when it is unfolded.
    await page.locator('details.group[data-category="temporal"] > summary').click();
    await expect.poll(() => page.locator('details.group[data-category="temporal"] table.summary').count()).toBe(1);

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
    const heads = () => page.locator(".asks .scenario").evaluateAll((nodes) => nodes.map((h) => h.getAttribute("data-scenario")));
    expect(await heads()).toEqual(["corrections"]);
    expect(await page.locator(".asks .pager .range").textContent()).toBe("Asks 1–3 of 3");

    await page.selectOption('select[data-filter="category"]', "temporal");
    const askCategories = await page.locator(".ask-list details.ask").evaluateAll((asks) => asks.map((a) => a.getAttribute("data-category")));
    expect(askCategories).toEqual(["temporal"]);
    expect(await page.locator('details.group[data-category="single-hop"]').isVisible()).toBe(false);
    expect(await page.locator('details.group[data-category="temporal"]').isVisible()).toBe(true);

    await page.selectOption('select[data-filter="ablation"]', "");
    await page.selectOption('select[data-filter="scenario"]', "");
    await page.selectOption('select[data-filter="category"]', "");
    expect(await heads()).toEqual(["coffee-timeline", "corrections"]);
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
      await page.waitForFunction(drawn);
      // Open every scenario and ask, so that what the page draws on demand is loaded too.
      for (const summary of await page.locator("details > summary").all()) await summary.click();
      // They are drawn on the toggle events, which fire after the clicks return; a group's table arrives after its data.
      await page.waitForFunction(() =>
        [...document.querySelectorAll("details.ask[open], details.group[open]")].every((d) => d.hasAttribute("data-drawn") && d.querySelector("table") !== null),
      );
      expect(await page.locator("details.ask[data-drawn] table.drill").count()).toBeGreaterThan(0);
      expect(await page.locator("details.group[data-drawn] table").count()).toBeGreaterThan(0);
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

/** The issue's limit for the committed experiments' report: it must stay easy to open and to send. */
const MAX_REPORT_BYTES = 3_000_000;
/** A phone's window. */
const PHONE = 390;

/**
 * Every ask the pager reaches, page after page, as "scenario index:ask index" with its category.
 * Each page is read as drawn, so an ask that only the data holds is not counted. The pages are
 * turned by clicks on the visible Next button inside the page, one round trip for all of them
 * (the pager draws each page as it handles the click).
 */
async function reachableAsks(section: Locator): Promise<{ at: string; category: string }[]> {
  expect(await section.locator('.pager [data-step="1"]').isVisible()).toBe(true);
  return section.evaluate((root) => {
    const next = root.querySelector<HTMLButtonElement>('.pager [data-step="1"]')!;
    const seen: { at: string; category: string }[] = [];
    // A pager that never disables Next would page for ever; a thousand pages is far past the asks.
    for (let page = 0; page < 1000; page++) {
      for (const ask of root.querySelectorAll(".ask-list details.ask")) {
        seen.push({ at: ask.getAttribute("data-ask") ?? "", category: ask.getAttribute("data-category") ?? "" });
      }
      if (next.disabled) break;
      next.click();
    }
    return seen;
  });
}

/**
 * The committed report, opened as it is: `npm run check` (the end of `npm test`) renders it again
 * from the committed results and fails when the file differs, so it is what the code renders and
 * is not rendered a second time here. A missing file fails each test below with one line.
 */
describe("the report of the committed results", () => {
  let browser: Browser | undefined;
  const launch = async () => (browser ??= await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS }));
  const committed = () => {
    if (!existsSync(HTML_REPORT_PATH)) throw new Error(`${HTML_REPORT_PATH} is missing: regenerate it with \`npm run experiment\` or \`npm run check -- --update\``);
    return HTML_REPORT_PATH;
  };
  const open = async (width: number) => {
    const path = committed();
    const context = await (await launch()).newContext({ viewport: { width, height: 860 }, hasTouch: width === PHONE, isMobile: width === PHONE });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(pathToFileURL(resolve(path)).href);
    await page.waitForFunction(drawn, undefined, { timeout: 120_000 });
    return { page, errors, context };
  };

  afterAll(async () => {
    await browser?.close();
  });

  it("holds a section for every committed experiment, in at most 3 MB", () => {
    const names = recordedResultFiles().map((file) => basename(file, ".json"));
    expect(names).toEqual(expect.arrayContaining(["core", "locomo-end", "locomo-online", "locomo-sweep-end", "locomo-sweep-online"]));
    const html = readFileSync(committed(), "utf8");
    for (const name of names) expect(html, name).toContain(`<section class="experiment" id="experiment--${name}"`);
    expect(statSync(committed()).size).toBeLessThanOrEqual(MAX_REPORT_BYTES);
  });

  it.runIf(runIt)(
    "at 1,280 px reaches all 1,536 LoCoMo asks by paging, and by filtering each conversation and each category",
    async () => {
      if (!haveChromium) throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium package`);
      const { page, errors, context } = await open(WIDTH);
      const locomo = readResults(resultsFile("locomo-end"))!.experiment;
      const every = locomo.scenarios.flatMap((s, si) => s.asks.map((a, ai) => ({ at: `${si}:${ai}`, category: a.category ?? "" })));
      expect(every).toHaveLength(1_536);
      const section = page.locator("#experiment--locomo-end");
      const byAt = (asks: { at: string }[]) => asks.map((a) => a.at).sort();

      expect(byAt(await reachableAsks(section))).toEqual(byAt(every));

      const filter = (name: string, value: string) => section.locator(`select[data-filter="${name}"]`).selectOption(value);
      for (const [si, scenario] of locomo.scenarios.entries()) {
        await filter("scenario", scenario.name);
        const asks = await reachableAsks(section);
        expect(byAt(asks), scenario.name).toEqual(byAt(every.filter((a) => a.at.startsWith(`${si}:`))));
      }
      await filter("scenario", "");
      const categories = [...new Set(every.map((a) => a.category))];
      expect(categories.length).toBeGreaterThan(1);
      for (const category of categories) {
        await filter("category", category);
        const asks = await reachableAsks(section);
        expect(byAt(asks), category).toEqual(byAt(every.filter((a) => a.category === category)));
      }

      // A conversation and a category together, and an ask of them opened to its drill-down.
      await filter("category", categories[0]!);
      await filter("scenario", locomo.scenarios[3]!.name);
      const both = await reachableAsks(section);
      expect(byAt(both)).toEqual(byAt(every.filter((a) => a.at.startsWith("3:") && a.category === categories[0])));
      const ask = section.locator(".ask-list details.ask").first();
      await ask.locator("summary").click();
      // The drill-down is drawn on the toggle event, which fires after the click returns.
      await expect.poll(() => ask.locator("table.drill tbody tr").count()).toBe(locomo.ablations.length * locomo.seeds.length);
      expect(errors).toEqual([]);
      await context.close();
    },
    600_000,
  );

  it.runIf(runIt)(
    "at 390 px on a touch screen fits the window outside scroll boxes, scales every chart to its box and opens a p-value on a tap",
    async () => {
      if (!haveChromium) throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium package`);
      const { page, errors, context } = await open(PHONE);
      expect(await page.$$eval(".chart", (charts) => charts.filter((c) => c.getAttribute("data-rendered") !== "true").length)).toBe(0);
      // Unfold what is folded and open an ask of each experiment, so that what the page draws on demand is measured too.
      for (const group of await page.locator('details.group > summary').all()) await group.tap();
      for (const section of await page.locator("section.experiment").all()) await section.locator(".ask-list details.ask > summary").first().tap();
      await expect.poll(() => page.locator("details.group table.summary").count()).toBe(await page.locator("details.group").count());

      expect(await page.evaluate(overflowingElements, PHONE)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE);
      // Charts are scaled to their box, not cut off: each drawing is as wide as its box at most, and whole.
      const charts = await page.$$eval(".chart svg", (svgs) =>
        svgs.map((svg) => ({ drawn: svg.getBoundingClientRect().width, box: svg.parentElement!.clientWidth, scrolls: svg.parentElement!.scrollWidth })),
      );
      expect(charts.length).toBeGreaterThan(0);
      for (const chart of charts) {
        expect(chart.drawn).toBeLessThanOrEqual(chart.box + 0.5);
        expect(chart.scrolls).toBeLessThanOrEqual(chart.box);
      }

      // A summary cell of a comparison opens its p-values on a tap, and the panel closes again.
      const note = page.locator("body > .note");
      expect(await note.isVisible()).toBe(false);
      const cell = page.locator("#experiment--locomo-end table.summary tbody tr:not([data-baseline]) button.cell").first();
      await cell.tap();
      await expect.poll(() => note.isVisible()).toBe(true);
      expect(await note.locator("p").textContent()).toMatch(/ · all asks: 1536 asks, .*p = .*(Holm|Westfall–Young) p = /);
      expect(await cell.getAttribute("aria-pressed")).toBe("true");
      const box = (await note.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE);
      await note.locator("[data-close]").tap();
      expect(await note.isVisible()).toBe(false);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, "report-390.png") });
      expect(errors).toEqual([]);
      await context.close();
    },
    600_000,
  );
});

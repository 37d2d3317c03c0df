import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { summarise } from "../../../src/harness/summary.js";
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
const SCREENSHOT = "reports/screenshots/report.png";

const haveChromium = existsSync(CHROMIUM);
// In CI a missing browser is a broken setup and must fail; on a developer's machine it may skip.
const runIt = haveChromium || Boolean(process.env.CI);
const title = haveChromium || process.env.CI
  ? "opens from file:// and draws every chart with no errors or network requests"
  : `opens from file:// and draws every chart (skipped: ${CHROMIUM} is missing; apt-get install chromium)`;

describe("the HTML report in a browser", () => {
  const folder = mkdtempSync(join(tmpdir(), "recollect-report-"));
  let browser: Browser | undefined;

  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it.runIf(runIt)(title, async () => {
    if (!haveChromium) throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium package`);
    const results = handMadeResults();
    const [file] = await htmlReporter.render({
      results: [results],
      summaries: [summarise(results, { seed: 1 })],
      findings: [],
    readExisting: () => undefined,
    });
    const path = join(folder, file!.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file!.content);

    browser = await chromium.launch({ executablePath: CHROMIUM, args: LAUNCH_ARGS });
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
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
    expect(charts.map((c) => c.name)).toEqual(["metrics", "rank-change", "recall-over-time", "breakdown"]);
    for (const chart of charts) {
      expect(chart, chart.name ?? "").toMatchObject({ state: "true", drawn: true });
      expect(chart.text.length, `${chart.name} has axis text`).toBeGreaterThan(0);
    }

    // Tooltips: hovering a mark puts its values where Vega's built-in handler shows them.
    const point = page.locator('.chart[data-chart="metrics"] .mark-symbol path').first();
    await point.hover();
    const tooltip = () =>
      page.$eval('.chart[data-chart="metrics"]', (chart) =>
        [chart, ...chart.querySelectorAll("[title]")].map((n) => n.getAttribute("title") ?? "").join(" "),
      );
    await expect.poll(tooltip).toMatch(/mean: \d/);

    // A drill-down opens and shows what each ablation kept.
    const ask = page.locator("details.ask").nth(1);
    await ask.locator("summary").click();
    expect(await ask.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await expect.poll(() => ask.locator("table.drill").isVisible()).toBe(true);
    // The query arrives as text, never as markup.
    expect(await ask.locator("summary").textContent()).toContain("<b>tea</b>");
    expect(await ask.locator("summary b").count()).toBe(0);
    expect(await ask.locator("table.drill tbody tr").count()).toBe(3 * 2);

    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(failedRequests).toEqual([]);
    expect(offlineRequests).toEqual([]);
  });
});

import { experimentCharts } from "../charts/experiment-charts.js";
import { HTML_REPORT_PATH } from "../paths.js";
import type { OutputFile, ReportContext, Reporter } from "../reporter.js";
import { browserBundles } from "./bundles.js";
import { renderPage } from "./page.js";

/** One self-contained page for every experiment: findings, tables, interactive charts and per-ask drill-downs. */
export const htmlReporter: Reporter = {
  name: "html",
  async render(context: ReportContext): Promise<OutputFile[]> {
    const pages = context.results.map((results, index) => {
      const summary = context.summaries[index];
      if (summary === undefined) throw new Error(`no summary for experiment "${results.experiment.name}"`);
      return { results, summary, charts: experimentCharts(results, summary) };
    });
    return [{ path: HTML_REPORT_PATH, content: renderPage(pages, browserBundles(), context.findings ?? []) }];
  },
};

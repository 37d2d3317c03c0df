import type { OutputFile, ReportContext, Reporter } from "../reporter.js";
import { CHARTS_DIR, chartDir, chartPath } from "../paths.js";
import { experimentCharts } from "./experiment-charts.js";
import { renderCharts } from "./render.js";

/**
 * Writes every experiment's charts as SVG and PNG. An experiment's charts render together (see
 * renderCharts: each PNG is drawn while the next SVG is made). With the context's chart cache,
 * only charts whose spec changed since they were cached are rendered.
 */
export const chartsReporter: Reporter = {
  name: "charts",
  owns: (experiment) => (experiment === undefined ? CHARTS_DIR : chartDir(experiment)),
  async render(context: ReportContext): Promise<OutputFile[]> {
    const files: OutputFile[] = [];
    for (const [index, results] of context.results.entries()) {
      const summary = context.summaries[index];
      if (summary === undefined) throw new Error(`no summary for experiment "${results.experiment.name}"`);
      const charts = experimentCharts(results, summary);
      const rendered = await renderCharts(charts.map((chart) => chart.spec), context.chartCache);
      charts.forEach((chart, i) => {
        files.push({ path: chartPath(results.experiment.name, chart.name, "svg"), content: rendered[i]!.svg });
        files.push({ path: chartPath(results.experiment.name, chart.name, "png"), content: rendered[i]!.png });
      });
    }
    return files;
  },
};

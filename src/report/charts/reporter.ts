import type { OutputFile, ReportContext, Reporter } from "../reporter.js";
import { CHARTS_DIR, chartDir, chartPath } from "../paths.js";
import { experimentCharts } from "./experiment-charts.js";
import { renderChart } from "./render.js";

/**
 * Writes every experiment's charts as SVG and PNG. Charts render one at a time: the box has two
 * cores and each render is CPU-bound, so parallel renders would only contend. With the context's
 * chart cache, only charts whose spec changed since they were cached are rendered.
 */
export const chartsReporter: Reporter = {
  name: "charts",
  owns: (experiment) => (experiment === undefined ? CHARTS_DIR : chartDir(experiment)),
  async render(context: ReportContext): Promise<OutputFile[]> {
    const files: OutputFile[] = [];
    for (const [index, results] of context.results.entries()) {
      const summary = context.summaries[index];
      if (summary === undefined) throw new Error(`no summary for experiment "${results.experiment.name}"`);
      for (const chart of experimentCharts(results, summary)) {
        const { svg, png } = await renderChart(chart.spec, context.chartCache);
        files.push({ path: chartPath(results.experiment.name, chart.name, "svg"), content: svg });
        files.push({ path: chartPath(results.experiment.name, chart.name, "png"), content: png });
      }
    }
    return files;
  },
};

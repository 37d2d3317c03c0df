import type { ExperimentResults } from "../../harness/results/types.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { breakdownChart } from "./breakdown-chart.js";
import type { ChartSpec } from "./chart-spec.js";
import { costChart } from "./cost-chart.js";
import { metricsChart } from "./metrics-chart.js";
import { rankChangeChart } from "./rank-change-chart.js";
import { categoryChart } from "./category-chart.js";
import { evidenceAgeChart } from "./evidence-age-chart.js";
import { forestChart } from "./forest-chart.js";
import { recallAtKChart } from "./recall-at-k-chart.js";
import { sweepFoldsChart, sweepHeatmapChart, sweepOptimismChart } from "./sweep-charts.js";
import { analyseSweep } from "../../harness/sweep/analysis.js";
import { DEFAULT_SUMMARY_SEED } from "../../harness/summary/summarise.js";

/** The charts of one experiment, in report order; a chart with no data to show is left out. */
export function experimentCharts(results: ExperimentResults, summary: ExperimentSummary): ChartSpec[] {
  if (results.experiment.name !== summary.experiment) {
    throw new Error(
      `summary of "${summary.experiment}" passed with the results of "${results.experiment.name}"`,
    );
  }
  const candidates: (ChartSpec | null)[] = [
    chart("forest", "Difference from the baseline", forestChart(summary, results.experiment)),
    chart("metrics", "Key metrics per ablation", metricsChart(summary)),
    chart("recall-at-k", "Recall at each k", recallAtKChart(summary)),
    chart("categories", "The headline metric per ask category", categoryChart(summary)),
    chart("evidence-age", "Recall by the age of the evidence", evidenceAgeChart(results, summary, DEFAULT_SUMMARY_SEED)),
    chart("cost", "Quality against cost", costChart(results, summary)),
    chart("rank-change", "Gold memory ranks: baseline vs ablation", rankChangeChart(summary)),
    chart("breakdown", "Score breakdown of the largest rank changes", breakdownChart(summary)),
  ];
  const sweep = analyseSweep(results, DEFAULT_SUMMARY_SEED);
  if (sweep !== undefined) {
    const name = results.experiment.name;
    candidates.push(
      chart("sweep-heatmap", "Sweep: the objective over two parameters", sweepHeatmapChart(name, sweep)),
      chart("sweep-folds", "Sweep: the point each fold chose", sweepFoldsChart(name, sweep)),
      chart("sweep-optimism", "Sweep: optimism per fold", sweepOptimismChart(name, sweep)),
    );
  }
  return candidates.filter((c): c is ChartSpec => c !== null);
}

function chart(name: ChartSpec["name"], title: string, spec: ChartSpec["spec"] | null): ChartSpec | null {
  return spec === null ? null : { name, title, spec };
}

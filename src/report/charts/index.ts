export type { ChartSpec } from "./chart-spec.js";
export { experimentCharts } from "./experiment-charts.js";
export { FONT_FAMILY, fontFiles } from "./fonts.js";
export { renderChart, renderSvg, svgToPng, type RenderedChart } from "./render.js";
export { chartsReporter } from "./reporter.js";
export { metricsChart, keyMetrics, ablationLetters } from "./metrics-chart.js";
export { rankChangeChart } from "./rank-change-chart.js";
export { recallOverTimeChart } from "./recall-over-time-chart.js";
export { breakdownChart, breakdownRows, BREAKDOWN_ROWS_PER_ABLATION } from "./breakdown-chart.js";

/** The pieces of EVALUATION.md and FAILURE_ANALYSIS.md, for sections that build on them. */
export { markdownTable, formatNumber, EMPTY_CELL, type Align, type Cell, type Column, type TableOptions } from "./table.js";
export {
  SIGNIFICANT_MARK,
  code,
  formatInterval,
  formatP,
  formatRank,
  formatSigned,
  formatSignedInterval,
  formatWtl,
  metricDecimals,
} from "./format.js";
export { GENERATED_NOTICE, renderSetup, renderTitle } from "./setup.js";
export { renderManifest } from "./manifest.js";
export {
  ablationLabel,
  categoryMetrics,
  letteredCell,
  renderAblations,
  renderCategoryTable,
  renderResults,
  renderSummaryTable,
  renderVsBaselineTable,
} from "./summary-tables.js";
export { rankChangesByAsk, renderBreakdownTable, renderRankChanges, renderRankTable } from "./rank-changes.js";
export { renderCharts } from "./charts.js";
export { renderExperiment, renderExperimentIntro, renderScenarios, type ExperimentRenderOptions } from "./experiment.js";
export { renderFigures, type FiguresInput } from "./figures.js";
export { fillFigureMarkers, findFigureMarkers, markerError, type FigureMarker } from "./figure-markers.js";
export type { ExperimentSectionProvider, ExperimentView, SectionProvider } from "./section-providers.js";

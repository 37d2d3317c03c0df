export { htmlReporter, HTML_REPORT_PATH } from "./reporter.js";
export { renderPage, type ExperimentPage } from "./page.js";
export { browserBundles, type BrowserBundles } from "./bundles.js";
export { escapeHtml, jsonForScript, scriptText, htmlId } from "./escape.js";
export { summaryTables } from "./summary-table.js";
export { drillDowns, MAX_DRILL_DOWN_ASKS } from "./drill-down.js";

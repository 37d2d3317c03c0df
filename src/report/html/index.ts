export { htmlReporter } from "./reporter.js";
export { renderPage, type ExperimentPage } from "./page.js";
export { browserBundles, type BrowserBundles } from "./bundles.js";
export { escapeHtml, jsonForScript, scriptText, htmlId } from "./escape.js";
export { summaryTables } from "./summary-table.js";
export { drillData, drillDowns, MAX_DRILL_DOWN_ASKS, type DrillData } from "./drill-down.js";
export { markdownBlock, markdownInline } from "./markdown.js";

/**
 * The appendix of one experiment, reports/<experiment>.md: what EVALUATION.md leaves out to stay
 * readable. Every metric for every ablation, every comparison with the baseline with its Holm
 * family, the same per category, the scenarios, the manifest and the rank changes.
 */
import { ALL_GROUP } from "../../harness/summary/summarise.js";
import { EVALUATION_PATH } from "../paths.js";
import { code, escapeMarkdown, escapeProse } from "./escape.js";
import { formatUnits } from "./format.js";
import { renderManifest } from "./manifest.js";
import { renderRankChanges } from "./rank-changes.js";
import type { ExperimentView } from "./section-providers.js";
import { GENERATED_NOTICE } from "./setup.js";
import { renderCostTable } from "./cost.js";
import { renderAblations, renderSummaryTable, renderVsBaselineTable } from "./summary-tables.js";
import { renderSweepAppendix } from "./sweep.js";
import { renderCharts } from "./charts.js";
import { markdownTable } from "./table.js";

export function renderAppendix(view: ExperimentView): string {
  const { results, summary } = view;
  const { experiment } = results;
  const groups = summary.groups;
  const parts = [
    GENERATED_NOTICE,
    `# ${escapeMarkdown(experiment.name)}: every metric and comparison`,
    `The appendix of ${code(experiment.name)} in [${EVALUATION_PATH}](../${EVALUATION_PATH}), which gives its findings and headline metrics. ` +
      `Statistics are over ${summary.unit.label}. Letters compare the ablations other than the baseline with each other ` +
      "(pairwise sign-flip tests, Holm-corrected per column): a superscript lists the letters of the ablations this one beats. " +
      "Each comparison with the baseline belongs to the family named beside it, with the adjustment that gave its adjusted p, the same family wherever it appears.",
    "## Scenarios",
    markdownTable(
      ["Scenario", { header: "Asks", align: "right" }, "Description"],
      experiment.scenarios.map((s) => [code(s.name), String(s.asks.length), escapeProse(s.description)]),
    ),
    `## Ablations${experiment.ablations.some((a) => a.system !== undefined) ? " and systems" : ""}`,
    renderAblations(results, summary),
    renderManifest(results),
  ];
  for (const group of groups) {
    const title = group === ALL_GROUP ? "all asks" : `category ${code(group)}`;
    const units = summary.rows.find((r) => r.group === group && r.ablation === summary.baseline)!.value;
    parts.push(
      `## Results: ${title}`,
      `Means with 95% intervals over ${formatUnits(summary.unit, units)}.`,
      renderSummaryTable(summary, group),
      `### Versus the baseline (${code(summary.baseline)}), ${title}`,
      renderVsBaselineTable(summary, group),
    );
  }
  const cost = renderCostTable(results, summary);
  if (cost !== "") parts.push("## Cost", cost);
  // EVALUATION.md shows a sweeping experiment in one table (see renderSweepFamily): its charts are linked here.
  parts.push(renderSweepAppendix(view), results.sweep === undefined ? "" : appendixCharts(results, summary), renderRankChanges(results, summary));
  return `${parts.map((p) => p.trim()).filter((p) => p !== "").join("\n\n")}\n`;
}

/** The chart links, from the appendix's own folder (reports/). */
function appendixCharts(results: ExperimentView["results"], summary: ExperimentView["summary"]): string {
  return renderCharts(results, summary).replace(/\]\((<?)reports\//g, "]($1");
}

import type { ExperimentResults } from "../../harness/results/types.js";
import { ALL_GROUP, findRow } from "../../harness/summary.js";
import type { ExperimentSummary, MetricSummary } from "../../harness/summary-types.js";
import { code, escapeMarkdown, escapeProse } from "./escape.js";
import {
  SIGNIFICANT_MARK,
  formatInterval,
  formatP,
  formatSignedInterval,
  formatWtl,
  metricDecimals,
} from "./format.js";
import { markdownTable } from "./table.js";

/** An ablation's name as a table shows it, escaped, with the baseline marked. */
export function ablationLabel(summary: ExperimentSummary, ablation: string): string {
  return ablation === summary.baseline ? `${escapeMarkdown(ablation)} (baseline)` : escapeMarkdown(ablation);
}

/** The ablations with their letters and descriptions, as the experiment file states them. */
export function renderAblations(results: ExperimentResults, summary: ExperimentSummary): string {
  return markdownTable(
    ["Letter", "Ablation", "Description"],
    results.experiment.ablations.map((a) => [
      findRow(summary, a.name, summary.metrics[0], ALL_GROUP).letter,
      ablationLabel(summary, a.name),
      escapeProse(a.description),
    ]),
  );
}

/** "mean [lo, hi]" with the letters of the ablations this one beats as a superscript. */
export function letteredCell(row: MetricSummary): string {
  const interval = formatInterval(row.value, metricDecimals(row.metric));
  return row.beats.length === 0 ? interval : `${interval}<sup>${row.beats.join(" ")}</sup>`;
}

/** Rows = ablations (with their letter), columns = metrics. */
export function renderSummaryTable(summary: ExperimentSummary, group: string = ALL_GROUP): string {
  return markdownTable(
    ["Letter", "Ablation", ...summary.metrics],
    summary.ablations.map((ablation) => [
      findRow(summary, ablation, summary.metrics[0], group).letter,
      ablationLabel(summary, ablation),
      ...summary.metrics.map((metric) => letteredCell(findRow(summary, ablation, metric, group))),
    ]),
  );
}

/** Each (ablation, metric) against the baseline: paired Δ, p before and after Holm, W/T/L. */
export function renderVsBaselineTable(summary: ExperimentSummary, group: string = ALL_GROUP): string {
  const rows = summary.ablations
    .filter((ablation) => ablation !== summary.baseline)
    .flatMap((ablation) =>
      summary.metrics.map((metric) => {
        const row = findRow(summary, ablation, metric, group);
        const c = row.vsBaseline!;
        return [
          escapeMarkdown(ablation),
          metric,
          formatSignedInterval(c.diff, metricDecimals(metric)),
          formatP(c.p),
          formatP(c.pHolm),
          c.significant ? SIGNIFICANT_MARK : "",
          formatWtl(c),
        ];
      }),
    );
  return markdownTable(
    [
      "Ablation",
      "Metric",
      `\u0394 vs ${escapeMarkdown(summary.baseline)} [95% CI]`,
      { header: "p", align: "right" },
      { header: "p (Holm)", align: "right" },
      { header: "Sig.", align: "center" },
      { header: "W/T/L", align: "right" },
    ],
    rows,
  );
}

/** One metric by category: rows = categories, columns = ablations, with n and letters. */
export function renderCategoryTable(summary: ExperimentSummary, metric: string): string {
  const categories = summary.groups.filter((g) => g !== ALL_GROUP);
  return markdownTable(
    ["Category", { header: "n", align: "right" }, ...summary.ablations.map((a) => `${findRow(summary, a, metric, ALL_GROUP).letter} ${ablationLabel(summary, a)}`)],
    [...categories, ALL_GROUP].map((group) => [
      group === ALL_GROUP ? "all asks" : escapeMarkdown(group),
      String(findRow(summary, summary.baseline, metric, group).value.n),
      ...summary.ablations.map((a) => letteredCell(findRow(summary, a, metric, group))),
    ]),
  );
}

/** The headline metrics for the by-category view: recall at the largest k and MRR. */
export function categoryMetrics(summary: ExperimentSummary): string[] {
  const recall = summary.metrics.filter((m) => m.startsWith("recall_any@"));
  return [recall[recall.length - 1], "mrr"].filter((m): m is string => m !== undefined && summary.metrics.includes(m));
}

/** The summary and vs-baseline tables of every group, and the by-category tables when there are categories. */
export function renderResults(summary: ExperimentSummary): string {
  const parts: string[] = [
    "### Results: all asks",
    renderSummaryTable(summary, ALL_GROUP),
    `#### Versus the baseline (${code(summary.baseline)}), all asks`,
    renderVsBaselineTable(summary, ALL_GROUP),
  ];
  const categories = summary.groups.filter((g) => g !== ALL_GROUP);
  if (categories.length > 0) {
    parts.push(
      "### Results by category",
      "Each category is its own table: letters and Holm corrections are computed within it.",
    );
    for (const metric of categoryMetrics(summary)) {
      parts.push(`#### ${code(metric)} by category`, renderCategoryTable(summary, metric));
    }
    for (const category of categories) {
      parts.push(`#### Category ${code(category)}`, renderSummaryTable(summary, category));
    }
  }
  return parts.join("\n\n");
}

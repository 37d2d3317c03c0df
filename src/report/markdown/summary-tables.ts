import type { ExperimentResults } from "../../harness/results/types.js";
import { higherIsBetter } from "../../harness/metrics.js";
import { adjustedPLabel, adjustmentName } from "../../harness/summary/adjustment.js";
import { ALL_GROUP, familyName, findRow } from "../../harness/summary/summarise.js";
import type { Comparison, ExperimentSummary, MetricSummary } from "../../harness/summary/types.js";
import { code, escapeMarkdown, escapeProse } from "./escape.js";
import {
  SIGNIFICANT_MARK,
  formatInterval,
  formatP,
  formatSignedInterval,
  formatUnits,
  formatWtl,
  metricDecimals,
} from "./format.js";
import { EMPTY_CELL, formatNumber as formatValue, markdownTable } from "./table.js";
import { comparisonVerdict, verdictCell } from "./verdict.js";

/** An ablation's name as a table shows it, escaped, with the baseline marked. */
export function ablationLabel(summary: ExperimentSummary, ablation: string): string {
  return ablation === summary.baseline ? `${escapeMarkdown(ablation)} (baseline)` : escapeMarkdown(ablation);
}

/**
 * The baseline's settings, then what each other ablation changes and why it is run. A list, not a
 * table: the settings are generated from the policies, so they are long and exact.
 */
export function renderAblations(results: ExperimentResults, summary: ExperimentSummary): string {
  const why = (note: string | undefined) => (note === undefined ? "" : ` \u2014 ${escapeProse(note)}`);
  return results.experiment.ablations
    .map((a) =>
      a.name === summary.baseline
        ? `- ${code(a.name)} (baseline): ${escapeMarkdown(a.description)}${why(a.note)}`
        : `- ${code(a.name)}: ${escapeMarkdown(a.description)}${why(a.note)}`,
    )
    .join("\n");
}

/** The verdict of one comparison as a table cell (see comparisonVerdict); never blank. */
export function verdict(c: Comparison, metric: string): string {
  return verdictCell(comparisonVerdict(c, metric));
}

/**
 * The experiment's headline metrics in one table, a pair of columns per metric: each ablation's
 * mean, and its difference from the baseline with its interval and family-adjusted p, marked when
 * significant. The caption states the units, the family and its adjustment; the findings say what could not be
 * detected and its minimum detectable effects, and the appendix gives every interval and MDE.
 */
export function renderHeadlineTable(summary: ExperimentSummary, group: string = ALL_GROUP): string {
  const metrics = summary.headline;
  const base = findRow(summary, summary.baseline, metrics[0]!, group).value;
  const family = summary.families.find((f) => f.name === familyName(group, true));
  const lower = metrics.filter((m) => !higherIsBetter(m));
  const adjustment = adjustmentName(family ?? {});
  const caption =
    `Mean, and Δ vs ${code(summary.baseline)} [95% CI per comparison] ${adjustedPLabel(family ?? {})}, ${SIGNIFICANT_MARK} significant after ${adjustment}` +
    `${lower.length === 0 ? "" : ` (lower is better for ${lower.map(code).join(", ")})`}; over ${formatUnits(summary.unit, base)}` +
    `${family ? `; ${adjustment} over the ${family.size} comparisons of "${escapeMarkdown(family.name)}"` : ""}:`;
  const rows = summary.ablations.map((ablation) => [
    ablationLabel(summary, ablation),
    ...metrics.flatMap((metric) => {
      const row = findRow(summary, ablation, metric, group);
      return [formatValue(row.value.mean, metricDecimals(metric)), differenceCell(row.vsBaseline, metric)];
    }),
  ]);
  const headers = [
    "Ablation",
    ...metrics.flatMap((metric) => [
      { header: escapeMarkdown(metric), align: "right" as const },
      `\u0394 vs ${escapeMarkdown(summary.baseline)}`,
    ]),
  ];
  return [caption, markdownTable(headers, rows)].join("\n\n");
}

function differenceCell(c: Comparison | undefined, metric: string): string {
  if (c === undefined) return "(baseline)";
  const shown = comparisonVerdict(c, metric);
  if (shown === "not comparable" || shown === "identical") return shown;
  const cell = `${formatSignedInterval(c.diff, metricDecimals(metric))} p ${formatP(c.pHolm)}`;
  return shown === "significant" ? `${cell} ${SIGNIFICANT_MARK}` : cell;
}

/** Every metric for every ablation, with the letters of the ablations each one beats (appendix). */
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

/** "mean [lo, hi]" with the letters of the ablations this one beats as a superscript. */
export function letteredCell(row: MetricSummary): string {
  const interval = formatInterval(row.value, metricDecimals(row.metric));
  return row.beats.length === 0 ? interval : `${interval}<sup>${row.beats.join(" ")}</sup>`;
}

/**
 * Each (ablation, metric) against the baseline, with its family and the adjustment that gave its
 * adjusted p (appendix). The MDE is at α / the family's size; none is shown where nothing varies
 * or no effect can be significant after the family's adjustment.
 */
export function renderVsBaselineTable(summary: ExperimentSummary, group: string = ALL_GROUP): string {
  const familySize = new Map(summary.families.map((f) => [f.name, f.size]));
  const rows = summary.ablations
    .filter((ablation) => ablation !== summary.baseline)
    .flatMap((ablation) =>
      summary.metrics.map((metric) => {
        const c = findRow(summary, ablation, metric, group).vsBaseline!;
        const d = metricDecimals(metric);
        return [
          escapeMarkdown(ablation),
          metric,
          c.comparable ? formatSignedInterval(c.diff, d) : "not comparable",
          c.comparable ? formatP(c.p) : EMPTY_CELL,
          c.comparable ? formatP(c.pHolm) : EMPTY_CELL,
          c.mde === undefined || !c.comparable ? EMPTY_CELL : formatValue(c.mde, d),
          verdict(c, metric),
          formatWtl(c),
          c.comparable ? `${escapeMarkdown(c.family)} (${adjustmentName(c)})` : EMPTY_CELL,
        ];
      }),
    );
  return markdownTable(
    [
      "Ablation",
      "Metric",
      `\u0394 vs ${escapeMarkdown(summary.baseline)} [95% CI per comparison]`,
      { header: "p", align: "right" },
      { header: "p (adjusted)", align: "right" },
      { header: "MDE at α/family", align: "right" },
      "Verdict",
      { header: "W/T/L", align: "right" },
      "Family (adjustment)",
    ],
    rows,
  );
}

/** The headline metrics by category: rows = categories, columns = ablations. */
export function renderCategoryTable(summary: ExperimentSummary, metric: string): string {
  const categories = summary.groups.filter((g) => g !== ALL_GROUP);
  return markdownTable(
    [
      "Category",
      { header: "Asks", align: "right" },
      ...summary.ablations.map((a) => ablationLabel(summary, a)),
    ],
    [...categories, ALL_GROUP].map((group) => [
      group === ALL_GROUP ? "all asks" : escapeMarkdown(group),
      String(findRow(summary, summary.baseline, metric, group).value.nItems),
      ...summary.ablations.map((a) => {
        const row = findRow(summary, a, metric, group);
        const mean = formatValue(row.value.mean, metricDecimals(metric));
        return row.vsBaseline !== undefined && comparisonVerdict(row.vsBaseline, metric) === "significant" ? `${mean} ${SIGNIFICANT_MARK}` : mean;
      }),
    ]),
  );
}

function higherLower(metric: string): string {
  return metric === "leakage" || metric === "tokens" ? "lower is better" : "higher is better";
}

import type { ExperimentResults } from "../../harness/results/types.js";
import { ALL_GROUP, findRow } from "../../harness/summary.js";
import type { ExperimentSummary, MetricSummary } from "../../harness/summary-types.js";
import { resultsPath } from "../paths.js";
import { code, escapeMarkdown } from "./escape.js";
import {
  SIGNIFICANT_MARK,
  formatP,
  formatRank,
  formatSignedInterval,
  formatWtl,
  metricDecimals,
} from "./format.js";
import { EMPTY_CELL, formatNumber, markdownTable } from "./table.js";

export interface FiguresInput {
  results: ExperimentResults;
  /** The summary over all scenarios. */
  summary: ExperimentSummary;
  /** The summary restricted to the marker's scenario, when it names one. */
  scenarioSummary?: ExperimentSummary;
  ablation: string;
  metric: string;
  scenario?: string;
}

/** The measured figures for one marker block of FAILURE_ANALYSIS.md. */
export function renderFigures(input: FiguresInput): string {
  const { results, summary, ablation, metric, scenario } = input;
  const baseline = summary.baseline;
  const decimals = metricDecimals(metric);
  const line = (label: string, s: ExperimentSummary) => {
    const row = findRow(s, ablation, metric, ALL_GROUP);
    const base = findRow(s, baseline, metric, ALL_GROUP);
    const c = row.vsBaseline!;
    return [
      label,
      String(c.diff.n),
      mean(row, decimals),
      mean(base, decimals),
      formatSignedInterval(c.diff, decimals),
      formatP(c.p),
      formatP(c.pHolm),
      formatWtl(c),
      c.significant ? SIGNIFICANT_MARK : "",
    ];
  };
  const rows = [
    ...(scenario !== undefined && input.scenarioSummary !== undefined
      ? [line(`scenario ${code(scenario)}`, input.scenarioSummary)]
      : []),
    line("all scenarios", summary),
  ];
  const parts = [
    `Measured: ${code(ablation)} against the baseline ${code(baseline)} on ${code(metric)}, ` +
      `from ${code(resultsPath(summary.experiment))} (seeds ${results.experiment.seeds.join(", ")}; ` +
      "paired over (scenario, ask, seed); p from a sign-flip test, Holm-corrected across all " +
      "(ablation, metric) comparisons over the same asks as the row).",
    markdownTable(
      [
        "Asks",
        { header: "n", align: "right" },
        escapeMarkdown(ablation),
        `${escapeMarkdown(baseline)} (baseline)`,
        "\u0394 [95% CI]",
        { header: "p", align: "right" },
        { header: "p (Holm)", align: "right" },
        { header: "W/T/L", align: "right" },
        { header: "Sig.", align: "center" },
      ],
      rows,
    ),
  ];

  const changes = summary.rankChanges.filter(
    (c) => c.ablation === ablation && (scenario === undefined || c.scenario === scenario),
  );
  const where = scenario === undefined ? "" : ` in ${code(scenario)}`;
  const detailed = results.trials.some(
    (t) => (scenario === undefined || t.scenario === scenario) && t.asks.some((a) => a.detail !== undefined),
  );
  if (!detailed) {
    parts.push(
      `Rank changes are listed only for experiments that record score breakdowns (\`detail: true\`); ` +
        `${code(results.experiment.file)} keeps ranks only.`,
    );
  } else if (changes.length === 0) {
    parts.push(`No gold memory changes its median rank under ${code(ablation)}${where}.`);
  } else {
    parts.push(
      `Rank changes under ${code(ablation)}${where} (median rank over seeds; moved by = signal ` +
        "contribution ablation \u2212 baseline; total score baseline \u2192 ablation):",
      markdownTable(
        [
          ...(scenario === undefined ? ["Scenario"] : []),
          "Ask",
          "Gold",
          { header: escapeMarkdown(baseline), align: "right" },
          { header: escapeMarkdown(ablation), align: "right" },
          "Moved by",
          "Total",
        ],
        changes.map((c) => [
          ...(scenario === undefined ? [code(c.scenario)] : []),
          code(c.ask),
          code(c.gold),
          formatRank(c.baselineRank),
          formatRank(c.ablationRank),
          escapeMarkdown(c.movedBy),
          `${c.baseline === null ? EMPTY_CELL : formatNumber(c.baseline.total)} \u2192 ${c.variant === null ? EMPTY_CELL : formatNumber(c.variant.total)}`,
        ]),
      ),
    );
  }
  return parts.join("\n\n");
}

function mean(row: MetricSummary, decimals: number): string {
  return row.value.n === 0 ? EMPTY_CELL : formatNumber(row.value.mean, decimals);
}

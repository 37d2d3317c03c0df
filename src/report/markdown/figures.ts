import type { ExperimentResults } from "../../harness/results/types.js";
import { ALL_GROUP, findRow } from "../../harness/summary/summarise.js";
import { adjustedPLabel, adjustmentName } from "../../harness/summary/adjustment.js";
import type { DesignedFailure, ExperimentSummary, MetricSummary } from "../../harness/summary/types.js";
import { resultsPath } from "../paths.js";
import { claimCells } from "./designed-failures.js";
import { verdict } from "./summary-tables.js";
import { code, escapeMarkdown } from "./escape.js";
import {
  formatP,
  formatRank,
  formatSignedInterval,
  formatUnits,
  formatWtl,
  metricDecimals,
} from "./format.js";
import { EMPTY_CELL, formatNumber, markdownTable } from "./table.js";

export interface FiguresInput {
  results: ExperimentResults;
  summary: ExperimentSummary;
  ablation: string;
  metric: string;
  /** The scenario whose designed failure the block quotes, when the marker names one. */
  scenario?: string;
  /** That scenario's claim, as EVALUATION.md tests it; required with `scenario`. */
  claim?: DesignedFailure;
}

/**
 * The measured figures for one marker block of FAILURE_ANALYSIS.md. They are the very rows
 * EVALUATION.md and the appendix show (the designed failure with the seed as the unit, and the
 * comparison over all asks with its family), so a comparison has one p-value and one
 * verdict in every file.
 */
export function renderFigures(input: FiguresInput): string {
  const { results, summary, ablation, metric, scenario, claim } = input;
  const baseline = summary.baseline;
  const d = metricDecimals(metric);
  const parts: string[] = [];

  if (claim !== undefined) {
    parts.push(
      `Designed failure (unit: seed, as in EVALUATION.md): ${code(ablation)} against ${code(baseline)} on ${code(metric)} in ` +
        `${code(claim.scenario)}, each seed's asks averaged, over ${results.experiment.seeds.length} seeds; Holm family "designed failures".`,
      markdownTable(
        [
          { header: "Seeds", align: "right" },
          { header: `${escapeMarkdown(baseline)} (baseline)`, align: "right" },
          { header: escapeMarkdown(ablation), align: "right" },
          "\u0394 [95% CI]",
          { header: "p", align: "right" },
          { header: "p (Holm)", align: "right" },
          { header: "W/T/L", align: "right" },
          { header: "Loses?", align: "center" },
        ],
        [[String(claim.diff.nClusters), ...claimCells(claim)]],
      ),
    );
  }

  const row = findRow(summary, ablation, metric, ALL_GROUP);
  const c = row.vsBaseline!;
  parts.push(
    `Over all asks of ${code(resultsPath(summary.experiment))} (unit: ${summary.unit.label}; ${formatUnits(summary.unit, c.diff)}` +
      `${c.comparable ? `; ${adjustmentName(c)} family "${escapeMarkdown(c.family)}"` : ""}):`,
    markdownTable(
      [
        escapeMarkdown(ablation),
        `${escapeMarkdown(baseline)} (baseline)`,
        "\u0394 [95% CI]",
        { header: "p", align: "right" },
        { header: adjustedPLabel(c), align: "right" },
        { header: "MDE", align: "right" },
        "Verdict",
        { header: "W/T/L asks", align: "right" },
      ],
      [[
        mean(row, d),
        mean(findRow(summary, baseline, metric, ALL_GROUP), d),
        c.comparable ? formatSignedInterval(c.diff, d) : "not comparable",
        c.comparable ? formatP(c.p) : EMPTY_CELL,
        c.comparable ? formatP(c.pHolm) : EMPTY_CELL,
        c.mde === undefined || !c.comparable ? EMPTY_CELL : formatNumber(c.mde, d),
        verdict(c, metric),
        formatWtl(c),
      ]],
    ),
  );

  const changes = summary.rankChanges.filter(
    (change) => change.ablation === ablation && (scenario === undefined || change.scenario === scenario),
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
      `Rank changes under ${code(ablation)}${where} (median rank over seeds; moved by = the signal that most changed the ` +
        "margin to the memories that changed places with it; total score baseline \u2192 ablation, in one seed):",
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
        changes.map((change) => [
          ...(scenario === undefined ? [code(change.scenario)] : []),
          code(change.ask),
          code(change.gold),
          formatRank(change.baselineRank),
          formatRank(change.ablationRank),
          escapeMarkdown(change.movedBy),
          `${change.baseline === null ? EMPTY_CELL : formatNumber(change.baseline.total)} \u2192 ${change.variant === null ? EMPTY_CELL : formatNumber(change.variant.total)}`,
        ]),
      ),
    );
  }
  return parts.join("\n\n");
}

function mean(row: MetricSummary, decimals: number): string {
  return row.value.n === 0 ? EMPTY_CELL : formatNumber(row.value.mean, decimals);
}

import { EXACT_CLUSTER_MAX } from "../../harness/stats/index.js";
import type { DesignedFailure } from "../../harness/summary/types.js";
import type { ExperimentView } from "./section-providers.js";
import { code, escapeMarkdown } from "./escape.js";
import { formatP, formatSignedInterval, formatWtl, metricDecimals } from "./format.js";
import { formatNumber, markdownTable } from "./table.js";

/** One claim's figures: baseline and ablation means, Δ, p, p (Holm), W/T/L over seeds, and whether it loses. */
export function claimCells(r: DesignedFailure): string[] {
  const d = metricDecimals(r.metric);
  return [
    formatNumber(r.baselineMean, d),
    formatNumber(r.ablationMean, d),
    formatSignedInterval(r.diff, d),
    formatP(r.p),
    formatP(r.pHolm),
    formatWtl(r),
    r.loses ? "yes" : "no",
  ];
}

/**
 * The scenarios' own claims, checked: each scenario names the ablations it is built to make fail
 * and the metric on which they should, and this table shows whether they did, across seeds.
 */
export function designedFailuresSection(_context: unknown, { results, summary }: ExperimentView): string {
  const rows = summary.designedFailures;
  if (rows.length === 0) return "";
  const baseline = results.experiment.baseline;
  const lost = rows.filter((r) => r.loses).length;
  const seeds = results.experiment.seeds.length;
  const table = markdownTable(
    [
      "Scenario",
      "Built to fail",
      "Metric",
      { header: escapeMarkdown(baseline), align: "right" },
      { header: "ablation", align: "right" },
      `Δ [95% CI per comparison] over ${seeds} seeds`,
      { header: "p", align: "right" },
      { header: "p (Holm)", align: "right" },
      { header: "W/T/L seeds", align: "right" },
      { header: "Loses?", align: "center" },
    ],
    rows.map((r) => [code(r.scenario), code(r.ablation), escapeMarkdown(r.metric), ...claimCells(r)]),
  );
  return [
    "### Designed failures (unit: seed)",
    `Each scenario names the ablations it is built to make fail and the metric on which they should (its \`targets\`). ` +
      `Such a claim is about robustness: does the failure hold whatever a seed varies? So here the seed is the unit: ` +
      `each seed's asks of the scenario are averaged, and the ablation is compared with ${code(baseline)} across the ${seeds} seeds ` +
      `(the exact sign-flip test with seeds as the units, with 12 seeds or fewer or when every seed agrees${seeds <= EXACT_CLUSTER_MAX ? `, so ${seeds} seeds give no p below ${formatP(2 / 2 ** seeds)}` : ""}; the cluster-robust t test otherwise), with Holm's correction across the ${rows.length} claims (family "designed failures"). ` +
      `This speaks about the scenario, not about asks in general. ${lost} of ${rows.length} designed failures hold.`,
    table,
  ].join("\n\n");
}

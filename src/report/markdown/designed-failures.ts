import { designedFailures } from "../../harness/summary/designed-failures.js";
import { DEFAULT_SUMMARY_SEED } from "../../harness/summary.js";
import type { ExperimentView } from "./section-providers.js";
import { code, escapeMarkdown } from "./escape.js";
import { formatP, formatSignedInterval, formatWtl, metricDecimals } from "./format.js";
import { formatNumber, markdownTable } from "./table.js";

/**
 * The scenarios' own claims, checked: each scenario names the ablations it is built to make fail
 * and the metric on which they should, and this table shows whether they did.
 */
export function designedFailuresSection(_context: unknown, { results }: ExperimentView): string {
  const rows = designedFailures(results, { seed: DEFAULT_SUMMARY_SEED });
  if (rows.length === 0) return "";
  const baseline = results.experiment.baseline;
  const lost = rows.filter((r) => r.loses).length;
  const table = markdownTable(
    [
      "Scenario",
      "Built to fail",
      "Metric",
      { header: escapeMarkdown(baseline), align: "right" },
      { header: "ablation", align: "right" },
      "Δ [95% CI]",
      { header: "p", align: "right" },
      { header: "p (Holm)", align: "right" },
      { header: "W/T/L", align: "right" },
      { header: "Loses?", align: "center" },
    ],
    rows.map((r) => {
      const d = metricDecimals(r.metric);
      return [
        code(r.scenario),
        code(r.ablation),
        escapeMarkdown(r.metric),
        formatNumber(r.baselineMean, d),
        formatNumber(r.ablationMean, d),
        formatSignedInterval(r.diff, d),
        formatP(r.p),
        formatP(r.pHolm),
        formatWtl(r),
        r.loses ? "yes" : "no",
      ];
    }),
  );
  return [
    "### Designed failures",
    "",
    `Each scenario names the ablations it is built to make fail and the metric on which they should (its \`targets\`). ` +
      `Here each claim is tested on that scenario's (ask, seed) pairs: the ablation's difference from ${code(baseline)}, ` +
      `a paired sign-flip test, and Holm's correction across the ${rows.length} claims of this experiment. ` +
      `"Loses" means worse than the baseline with p (Holm) < 0.05. ${lost} of ${rows.length} designed failures hold.`,
    "",
    table,
    "",
  ].join("\n");
}

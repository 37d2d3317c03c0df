import type { AblationLosses } from "../../harness/summary/losses.js";
import { SIGNIFICANT_MARK, code, formatP, formatSignedInterval, formatWtl, metricDecimals } from "./format.js";
import { EMPTY_CELL, markdownTable } from "./table.js";

/** The "Which ablation loses where" section, from whereAblationsLose. */
export function renderLosses(losses: readonly AblationLosses[], baseline: string): string {
  const rows = losses.flatMap(({ ablation, keyMetric, overall, losses: scenarios }) => {
    const decimals = metricDecimals(keyMetric);
    const overallDiff = formatSignedInterval(overall.vsBaseline!.diff, decimals);
    if (scenarios.length === 0) {
      return [[ablation, keyMetric, overallDiff, "loses on no scenario", EMPTY_CELL, EMPTY_CELL, EMPTY_CELL, ""]];
    }
    return scenarios.map((loss) => {
      const c = loss.row.vsBaseline!;
      return [
        ablation,
        keyMetric,
        overallDiff,
        code(loss.scenario),
        formatSignedInterval(c.diff, decimals),
        formatP(c.pHolm),
        formatWtl(c),
        loss.significant ? SIGNIFICANT_MARK : "",
      ];
    });
  });
  return [
    "### Which ablation loses where",
    "For each ablation, its key metric is the quality metric on which it falls furthest below the " +
      `baseline (${code(baseline)}) over all asks. Listed are the scenarios where it loses on that metric ` +
      "significantly (p Holm < 0.05 among that scenario's comparisons, \u2713) and the scenario where it " +
      "loses by the largest margin.",
    rows.length === 0
      ? "The experiment has no ablation besides the baseline."
      : markdownTable(
          [
            "Ablation",
            "Key metric",
            "\u0394 all asks [95% CI]",
            "Scenario",
            "\u0394 in scenario [95% CI]",
            { header: "p (Holm)", align: "right" },
            { header: "W/T/L", align: "right" },
            { header: "Sig.", align: "center" },
          ],
          rows,
        ),
  ].join("\n\n");
}

import type { TopLevelSpec } from "vega-lite";
import { higherIsBetter } from "../../harness/metrics.js";
import { ALL_GROUP } from "../../harness/summary/summarise.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { panelWidth, rowPanels } from "./panel-width.js";
import { namedPanels } from "./text-measure.js";
import { CHART_CONFIG, HEADER_FONT_SIZE, ablationColor } from "./theme.js";

const MAX_COLUMNS = 3;
const ROW_STEP = 15;

/**
 * The first headline metric per ask category (a benchmark's question types), one bar per
 * ablation with its 95% interval: a change that helps one kind of question and hurts another
 * cancels out in the overall mean. Drawn only when the asks carry categories.
 */
export function categoryChart(summary: ExperimentSummary): TopLevelSpec | null {
  const metric = summary.headline[0];
  const categories = summary.groups.filter((g) => g !== ALL_GROUP);
  if (metric === undefined || categories.length === 0) return null;
  const values = summary.rows
    .filter((r) => r.metric === metric && r.group !== ALL_GROUP && r.value.n > 0)
    .map((r) => ({ category: r.group, ablation: r.ablation, mean: r.value.mean, lo: r.value.lo, hi: r.value.hi, asks: r.value.nItems }));
  const shown = categories.filter((c) => values.some((v) => v.category === c));
  if (shown.length === 0) return null;
  const columns = Math.min(MAX_COLUMNS, shown.length);
  const width = panelWidth({ labels: summary.ablations, columns, min: 140, max: 300 });
  const y = { field: "ablation", type: "nominal", sort: summary.ablations, title: null } as const;
  const x = { type: "quantitative" as const, scale: { domain: [0, 1], nice: false }, axis: { values: [0, 0.25, 0.5, 0.75, 1], format: ".2f" }, title: `${metric}, 95% interval` };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${summary.experiment}: ${metric} per ask category`,
      subtitle: [
        `Mean per ablation with its 95% interval over the category's ${summary.unit.label}${higherIsBetter(metric) ? "" : "; lower is better"}.`,
        "The tooltip gives each bar's number of asks; a category of few asks has a wide interval.",
      ],
    },
    config: CHART_CONFIG,
    data: { values },
    ...rowPanels(namedPanels("category", shown, width, HEADER_FONT_SIZE), columns, width, ROW_STEP, [
      {
        mark: { type: "bar", height: { band: 0.75 }, opacity: 0.85 },
        encoding: {
          y,
          x: { field: "mean", ...x },
          color: { field: "ablation", type: "nominal", scale: ablationColor(summary.ablations, summary.baseline), legend: null },
          tooltip: [
            { field: "ablation", type: "nominal" },
            { field: "category", type: "nominal" },
            { field: "mean", type: "quantitative", format: ".3f", title: metric },
            { field: "lo", type: "quantitative", format: ".3f", title: "95% lo" },
            { field: "hi", type: "quantitative", format: ".3f", title: "95% hi" },
            { field: "asks", type: "quantitative" },
          ],
        },
      },
      { mark: { type: "rule", color: "#222", strokeWidth: 1.5 }, encoding: { y, x: { field: "lo", ...x }, x2: { field: "hi" } } },
    ]),
    resolve: { scale: { x: "shared", y: "shared" }, axis: { x: "independent" } },
  } as TopLevelSpec;
}

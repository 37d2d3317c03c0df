import type { TopLevelSpec } from "vega-lite";
import { ALL_GROUP } from "../../harness/summary/summarise.js";
import type { ExperimentSummary } from "../../harness/summary/types.js";
import { type CurvePoint, curvePanels } from "./curve-panels.js";
import { CHART_CONFIG } from "./theme.js";

const RECALL_ANY = "recall_any@";

/**
 * Recall as the block is allowed more memories: each ablation's recall@k for every k the
 * experiment computes, with its interval, over the baseline's. Where two curves part tells the
 * reader at what depth a change starts to matter. A single k draws no curve.
 */
export function recallAtKChart(summary: ExperimentSummary): TopLevelSpec | null {
  const ks = summary.metrics
    .filter((m) => m.startsWith(RECALL_ANY))
    .map((m) => Number(m.slice(RECALL_ANY.length)))
    .sort((a, b) => a - b);
  if (ks.length < 2) return null;
  const points: CurvePoint[] = summary.rows.flatMap((row) => {
    if (row.group !== ALL_GROUP || !row.metric.startsWith(RECALL_ANY) || row.value.n === 0) return [];
    const { mean, lo, hi, nItems } = row.value;
    return [{ ablation: row.ablation, x: Number(row.metric.slice(RECALL_ANY.length)), mean, lo, hi, asks: nItems }];
  });
  const panels = curvePanels(points, summary.ablations, summary.baseline, {
    field: "x",
    type: "quantitative",
    title: "k",
    scale: { type: "log", domain: [ks[0], ks.at(-1)] },
    axis: { values: ks, format: "d" },
  }, "recall@k");
  if (panels === null) return null;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${summary.experiment}: recall@k for k = ${ks.join(", ")}`,
      subtitle: [
        `Up: recall@k, the share of asks with a gold memory among the first k, with its 95% interval over ${summary.unit.label}.`,
        `One panel per ablation, in colour, over ${summary.baseline} (the baseline) in black.`,
      ],
    },
    config: CHART_CONFIG,
    ...panels,
  } as TopLevelSpec;
}

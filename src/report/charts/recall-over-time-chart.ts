import type { TopLevelSpec } from "vega-lite";
import { metricValue } from "../../harness/metrics.js";
import type { AskResult, ExperimentResults } from "../../harness/results/types.js";
import { namedPanels } from "./text-measure.js";
import { BASELINE_COLOR, CHART_CONFIG, HEADER_FONT_SIZE, ablationColor } from "./theme.js";

/** A scenario needs asks at this many moments before a line through them says anything. */
export const MIN_ASK_TIMES = 3;
/** Four small panels a row fill 1,000 px. */
const COLUMNS = 4;
const PANEL_WIDTH = 190;
const PANEL_HEIGHT = 110;

interface TimePoint {
  scenario: string;
  /** The ablation of the panel the point is drawn in. */
  panel: string;
  /** Whose recall this is: the panel's ablation, or the baseline drawn in every panel for reference. */
  series: string;
  /** Simulated days from the scenario's start to the asks of this point. */
  day: number;
  recall: number;
  asks: string;
  /** Points in this series: a series of fewer than MIN_ASK_TIMES points is drawn as points alone. */
  points: number;
}

function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** scenario → ablation → ask → one value per seed */
function valuesPerAsk(results: ExperimentResults, metric: string): Map<string, Map<string, Map<string, number[]>>> {
  const perAsk = new Map<string, Map<string, Map<string, number[]>>>();
  for (const trial of results.trials) {
    const byAblation = perAsk.get(trial.scenario) ?? new Map<string, Map<string, number[]>>();
    perAsk.set(trial.scenario, byAblation);
    const byAsk = byAblation.get(trial.ablation) ?? new Map<string, number[]>();
    byAblation.set(trial.ablation, byAsk);
    for (const result of trial.asks as AskResult[]) {
      const value = metricValue(result, metric);
      if (value === null) continue;
      const list = byAsk.get(result.ask) ?? [];
      list.push(value);
      byAsk.set(result.ask, list);
    }
  }
  return perAsk;
}

/**
 * Recall over simulated time: whether a memory system keeps finding old facts as the clock moves
 * and the store grows is a question about time, which the pooled means hide. Only scenarios
 * whose asks happen at MIN_ASK_TIMES or more moments have a timeline (a benchmark that asks
 * everything at the end has none); asks at one moment share a point. Each ablation gets a small
 * panel of its own with the baseline drawn behind it, so no line hides another.
 */
export function recallOverTimeChart(results: ExperimentResults): TopLevelSpec | null {
  const { experiment } = results;
  const k = Math.min(...experiment.k);
  if (!Number.isFinite(k)) return null;
  const metric = `recall_any@${k}`;
  const timelines = experiment.scenarios.filter((s) => new Set(s.asks.map((a) => a.hour)).size >= MIN_ASK_TIMES);
  if (timelines.length === 0) return null;
  const perAsk = valuesPerAsk(results, metric);
  const ablations = experiment.ablations.map((a) => a.name);
  const others = ablations.filter((a) => a !== experiment.baseline);
  const color = ablationColor(ablations, experiment.baseline);

  const seriesOf = (scenario: (typeof timelines)[number], ablation: string) => {
    const byAsk = perAsk.get(scenario.name)?.get(ablation);
    if (!byAsk) return [];
    const hours = [...new Set(scenario.asks.map((a) => a.hour))].sort((a, b) => a - b);
    return hours.flatMap((hour) => {
      const ids = scenario.asks.filter((a) => a.hour === hour && byAsk.has(a.id)).map((a) => a.id);
      if (ids.length === 0) return [];
      const day = Math.round((hour / 24) * 1000) / 1000;
      return [{ day, recall: mean(ids.map((id) => mean(byAsk.get(id)!))), asks: ids.join(", ") }];
    });
  };

  const panels = timelines.flatMap((scenario) => {
    const baseline = seriesOf(scenario, experiment.baseline);
    const values: TimePoint[] = [];
    for (const panel of others) {
      for (const [series, points] of [
        [experiment.baseline, baseline],
        [panel, seriesOf(scenario, panel)],
      ] as const) {
        for (const p of points) values.push({ scenario: scenario.name, panel, series, ...p, points: points.length });
      }
    }
    const shown = others.filter((a) => values.some((v) => v.panel === a && v.series === a));
    return shown.length === 0 ? [] : [scenarioPanels(scenario.name, values, shown)];
  });
  if (panels.length === 0) return null;

  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: `${experiment.name}: ${metric} over simulated time`,
      subtitle: [
        `One panel per ablation, in colour, over ${experiment.baseline} (the baseline) in black; where they agree, the colour covers the black.`,
        `Each point is the asks at one moment of the scenario's clock, mean over ${experiment.seeds.length} seed(s).`,
      ],
    },
    config: CHART_CONFIG,
    vconcat: panels,
    spacing: 24,
  } as TopLevelSpec;

  function scenarioPanels(scenario: string, values: TimePoint[], shown: string[]): object {
    const encoding = {
      x: { field: "day", type: "quantitative", title: "day", axis: { tickMinStep: 1 } },
      y: { field: "recall", type: "quantitative", title: null, scale: { domain: [0, 1] }, axis: { values: [0, 0.5, 1] } },
      color: { field: "series", type: "nominal", scale: { domain: color.domain, range: color.range }, legend: null },
      tooltip: [
        { field: "series", type: "nominal", title: "ablation" },
        { field: "asks", type: "nominal", title: "ask" },
        { field: "recall", type: "quantitative", format: ".2f", title: metric },
      ],
    };
    const isBaseline = `datum.series === ${JSON.stringify(experiment.baseline)}`;
    const line = `datum.points >= ${MIN_ASK_TIMES}`;
    return {
      title: { text: `Scenario ${scenario}`, fontSize: 12, anchor: "start" },
      data: { values },
      facet: namedPanels("panel", shown, PANEL_WIDTH, HEADER_FONT_SIZE),
      columns: COLUMNS,
      spacing: { column: 12, row: 10 },
      spec: {
        width: PANEL_WIDTH,
        height: PANEL_HEIGHT,
        encoding,
        layer: [
          {
            transform: [{ filter: `${isBaseline} && ${line}` }],
            mark: { type: "line", color: BASELINE_COLOR, strokeWidth: 1.5, opacity: 0.8 },
          },
          {
            transform: [{ filter: isBaseline }],
            mark: { type: "point", filled: true, size: 22, color: BASELINE_COLOR, opacity: 0.8 },
          },
          { transform: [{ filter: `!(${isBaseline}) && ${line}` }], mark: { type: "line", strokeWidth: 2.5 } },
          { transform: [{ filter: `!(${isBaseline})` }], mark: { type: "point", filled: true, size: 40, opacity: 1 } },
        ],
      },
      resolve: { axis: { x: "independent", y: "independent" } },
    };
  }
}

import type { AskResult, ExperimentResults, GoldDetail } from "../../harness/results/types.js";
import { resultsPath } from "../paths.js";
import { escapeHtml, htmlId, jsonForScript } from "./escape.js";
import { markdownBlock } from "./markdown.js";

/** Past this many asks an experiment is a benchmark import; the page shows the first ones and says so. */
export const MAX_DRILL_DOWN_ASKS = 200;

/** A gold memory's score breakdown: id, section (null: not a candidate), rel, rec, imp, total. */
/** A gold memory's id and section, then its signals and total when its system reports them. */
type GoldRow = [string, string | null, number, number, number, number] | [string, string | null];

/**
 * What one ablation and seed did with one ask, compact: the page holds thousands of these and
 * draws a table only when its ask is opened. 0 stands for "not recorded" (results without detail).
 */
export type DrillRow = [kept: string[] | 0, ranks: (number | null)[], gold: GoldRow[] | 0, coverage: number | null, leaked: string[]] | null;

export interface DrillAsk {
  id: string;
  query: string;
  category: string | null;
  expect: string[];
  required: string[];
  stale: string[];
  /** One row per (ablation, seed), ablation-major in the experiment's order; null: not run. */
  rows: DrillRow[];
}

export interface DrillData {
  ablations: string[];
  baseline: string;
  seeds: number[];
  scenarios: { name: string; asks: DrillAsk[] }[];
}

/** Three decimals are what the page shows; more would only make it heavier. */
const round = (x: number) => Math.round(x * 1000) / 1000;

function goldRow(gold: GoldDetail): GoldRow {
  const { rel, rec, imp, total } = gold;
  if (rel === undefined || rec === undefined || imp === undefined || total === undefined) return [gold.id, gold.section];
  return [gold.id, gold.section, round(rel), round(rec), round(imp), round(total)];
}

function drillRow(result: AskResult | undefined): DrillRow {
  if (result === undefined) return null;
  return [
    result.detail ? result.detail.kept : 0,
    result.ranks,
    result.detail ? result.detail.gold.map(goldRow) : 0,
    result.coverage,
    result.leaked,
  ];
}

/** The asks the page shows, in scenario order, capped at MAX_DRILL_DOWN_ASKS. */
export function drillData(results: ExperimentResults): DrillData {
  const lookup = new Map<string, AskResult>();
  for (const trial of results.trials) {
    for (const result of trial.asks) {
      lookup.set(`${trial.scenario}\u0000${trial.ablation}\u0000${trial.seed}\u0000${result.ask}`, result);
    }
  }
  const { experiment } = results;
  let budget = MAX_DRILL_DOWN_ASKS;
  const scenarios: DrillData["scenarios"] = [];
  for (const scenario of experiment.scenarios) {
    if (budget <= 0) break;
    const asks = scenario.asks.slice(0, budget);
    budget -= asks.length;
    scenarios.push({
      name: scenario.name,
      asks: asks.map((ask) => ({
        id: ask.id,
        query: ask.query,
        category: ask.category ?? null,
        expect: ask.expect,
        required: ask.required,
        stale: ask.stale,
        rows: experiment.ablations.flatMap(({ name }) =>
          experiment.seeds.map((seed) => drillRow(lookup.get(`${scenario.name}\u0000${name}\u0000${seed}\u0000${ask.id}`))),
        ),
      })),
    });
  }
  return { ablations: experiment.ablations.map((a) => a.name), baseline: experiment.baseline, seeds: experiment.seeds, scenarios };
}

/**
 * The asks, grouped by scenario and then by ask, each a closed <details>. Opening an ask draws
 * what every ablation and seed did with it from the experiment's JSON island; the filters hide
 * scenarios, categories and ablations.
 */
export function drillDowns(results: ExperimentResults, index: number): string {
  const data = drillData(results);
  const descriptions = new Map(results.experiment.scenarios.map((s) => [s.name, s.description]));
  const dataId = htmlId("asks", index);
  const groups = data.scenarios.map((scenario, s) => {
    const asks = scenario.asks.map((ask, a) => {
      const category = ask.category ? ` <span class="tag">${escapeHtml(ask.category)}</span>` : "";
      return `<details class="ask" data-category="${escapeHtml(ask.category ?? "")}" data-ask="${s}:${a}"><summary><code>${escapeHtml(ask.id)}</code> ${escapeHtml(ask.query)}${category}</summary></details>`;
    });
    const categories = [...new Set(scenario.asks.map((a) => a.category ?? ""))];
    return `<details class="scenario" data-scenario="${escapeHtml(scenario.name)}" data-categories="${escapeHtml(JSON.stringify(categories))}"><summary>Scenario <code>${escapeHtml(scenario.name)}</code> <span class="count">${scenario.asks.length} ask${scenario.asks.length === 1 ? "" : "s"}</span></summary>
<div class="description">${markdownBlock(descriptions.get(scenario.name) ?? "")}</div>
${asks.join("\n")}
</details>`;
  });
  const total = results.experiment.scenarios.reduce((n, s) => n + s.asks.length, 0);
  const shown = data.scenarios.reduce((n, s) => n + s.asks.length, 0);
  if (total > shown) {
    groups.push(
      `<p class="legend">Showing the first ${shown} of ${total} asks; every ask is in ${escapeHtml(resultsPath(results.experiment.name))}.</p>`,
    );
  }
  return `<div class="asks" data-asks="${dataId}">\n${groups.join("\n")}\n</div>
<script type="application/json" id="${dataId}">${jsonForScript(data)}</script>`;
}

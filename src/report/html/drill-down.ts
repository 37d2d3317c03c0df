import type { AskResult, ExperimentResults, GoldDetail } from "../../harness/results/types.js";
import { escapeHtml } from "./escape.js";
import { markdownBlock } from "./markdown.js";

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

/** Every ask of the experiment, in scenario order, with what each ablation and seed did with it. */
export function drillData(results: ExperimentResults): DrillData {
  const lookup = new Map<string, AskResult>();
  for (const trial of results.trials) {
    for (const result of trial.asks) {
      lookup.set(`${trial.scenario}\u0000${trial.ablation}\u0000${trial.seed}\u0000${result.ask}`, result);
    }
  }
  const { experiment } = results;
  const scenarios = experiment.scenarios.map((scenario) => ({
    name: scenario.name,
    asks: scenario.asks.map((ask) => ({
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
  }));
  return { ablations: experiment.ablations.map((a) => a.name), baseline: experiment.baseline, seeds: experiment.seeds, scenarios };
}

/**
 * The asks, a page at a time: the page's script draws them from the experiment's packed data,
 * after the filters, grouped by scenario, each a closed <details> that draws what
 * every ablation and seed did with it when opened. Only the scenarios' descriptions are written
 * here, as templates: they are markdown, rendered safely on this side.
 */
export function drillDowns(results: ExperimentResults): string {
  const { name, scenarios } = results.experiment;
  const templates = scenarios.map((scenario, s) =>
    scenario.description.trim() === "" ? "" : `<template data-about="${s}">${markdownBlock(scenario.description)}</template>`,
  );
  return `<div class="asks">
<nav class="pager" aria-label="Pages of the asks of ${escapeHtml(name)}">
<button type="button" data-step="-1">‹ Previous</button>
<label>Page <select data-page></select></label>
<button type="button" data-step="1">Next ›</button>
<span class="range" aria-live="polite">Loading the asks…</span>
</nav>
<div class="ask-list"></div>
${templates.filter((t) => t !== "").join("\n")}
</div>`;
}

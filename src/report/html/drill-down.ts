import type { AskInfo, AskResult, ExperimentResults, GoldDetail } from "../../harness/results/types.js";
import { resultsPath } from "../paths.js";
import { escapeHtml } from "./escape.js";

/** Past this many asks an experiment is a benchmark import; the page shows the first ones and says so. */
export const MAX_DRILL_DOWN_ASKS = 200;

function idList(ids: readonly string[], marks: { gold: Set<string>; stale: Set<string> }): string {
  if (ids.length === 0) return '<span class="none">none</span>';
  return ids
    .map((id) => {
      const text = escapeHtml(id);
      if (marks.stale.has(id)) return `<del class="stale" title="stale at this ask">${text}</del>`;
      if (marks.gold.has(id)) return `<mark title="gold">${text}</mark>`;
      return `<code>${text}</code>`;
    })
    .join(" ");
}

function breakdown(gold: GoldDetail): string {
  const section = gold.section === null ? "not a candidate" : gold.section;
  const n = (x: number) => x.toFixed(3);
  return `<code>${escapeHtml(gold.id)}</code> <span class="section">${escapeHtml(section)}</span> rel ${n(gold.rel)} · rec ${n(gold.rec)} · imp ${n(gold.imp)} → <b>${n(gold.total)}</b>`;
}

function resultRow(ablation: string, seed: number, ask: AskInfo, result: AskResult | undefined): string {
  const head = `<th scope="row">${escapeHtml(ablation)}</th><td>${seed}</td>`;
  if (result === undefined) return `<tr>${head}<td colspan="5" class="none">not run</td></tr>`;
  const marks = { gold: new Set(ask.expect), stale: new Set(result.leaked) };
  const ranks = ask.expect
    .map((id, i) => `<code>${escapeHtml(id)}</code> ${result.ranks[i] == null ? "–" : `#${result.ranks[i]}`}`)
    .join("<br>");
  const kept = result.detail ? idList(result.detail.kept, marks) : '<span class="none">not recorded</span>';
  const scores = result.detail ? result.detail.gold.map(breakdown).join("<br>") : '<span class="none">not recorded</span>';
  const coverage = result.coverage === null ? "–" : result.coverage.toFixed(2);
  const leaked = result.leaked.length > 0 ? idList(result.leaked, marks) : '<span class="none">none</span>';
  return `<tr>${head}<td class="ids">${kept}</td><td>${ranks || "–"}</td><td class="scores">${scores}</td><td>${coverage}</td><td>${leaked}</td></tr>`;
}

function askDetails(
  results: ExperimentResults,
  scenario: string,
  ask: AskInfo,
  lookup: Map<string, AskResult>,
): string {
  const facts = [
    ["expected", idList(ask.expect, { gold: new Set(ask.expect), stale: new Set() })],
    ["required", idList(ask.required, { gold: new Set(), stale: new Set() })],
    ["stale", idList(ask.stale, { gold: new Set(), stale: new Set(ask.stale) })],
  ]
    .map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`)
    .join("");
  const rows: string[] = [];
  for (const { name } of results.experiment.ablations) {
    for (const seed of results.experiment.seeds) {
      rows.push(resultRow(name, seed, ask, lookup.get(`${scenario}\u0000${name}\u0000${seed}\u0000${ask.id}`)));
    }
  }
  const category = ask.category ? ` <span class="tag">${escapeHtml(ask.category)}</span>` : "";
  return `<details class="ask"><summary><code>${escapeHtml(ask.id)}</code> ${escapeHtml(ask.query)}${category}</summary>
<dl>${facts}</dl>
<div class="table-wrap"><table class="drill"><thead><tr><th scope="col">ablation</th><th scope="col">seed</th><th scope="col">kept (block order)</th><th scope="col">gold ranks</th><th scope="col">gold score breakdown</th><th scope="col">coverage</th><th scope="col">leaked</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody></table></div>
</details>`;
}

/** One <details> per ask: the question, its gold ids, and what every ablation and seed did with it. */
export function drillDowns(results: ExperimentResults): string {
  const lookup = new Map<string, AskResult>();
  for (const trial of results.trials) {
    for (const result of trial.asks) {
      lookup.set(`${trial.scenario}\u0000${trial.ablation}\u0000${trial.seed}\u0000${result.ask}`, result);
    }
  }
  const total = results.experiment.scenarios.reduce((n, s) => n + s.asks.length, 0);
  let budget = MAX_DRILL_DOWN_ASKS;
  const parts: string[] = [];
  for (const scenario of results.experiment.scenarios) {
    if (budget <= 0) break;
    const asks = scenario.asks.slice(0, budget);
    budget -= asks.length;
    parts.push(
      `<h4>Scenario <code>${escapeHtml(scenario.name)}</code></h4>\n<p class="legend">${escapeHtml(scenario.description)}</p>\n` +
        asks.map((ask) => askDetails(results, scenario.name, ask, lookup)).join("\n"),
    );
  }
  if (total > MAX_DRILL_DOWN_ASKS) {
    parts.push(
      `<p class="legend">Showing the first ${MAX_DRILL_DOWN_ASKS} of ${total} asks; every ask is in ${escapeHtml(resultsPath(results.experiment.name))}.</p>`,
    );
  }
  return parts.join("\n");
}

import { metricNames, metricReader } from "../metrics.js";
import { stableContent } from "./io.js";
import { trialKey } from "./trial-key.js";
import { type ExperimentResults, VOLATILE_MANIFEST_FIELDS } from "./types.js";

const fmt = (x: number | null) => (x === null ? "n/a" : Number.isInteger(x) ? String(x) : x.toFixed(4));
const signed = (x: number) => `${x >= 0 ? "+" : "−"}${fmt(Math.abs(x))}`;

/**
 * What changed between recorded and fresh results, as lines a reader can act on: which
 * experiment, ablation, metric and ask, and by how much. Empty when they are the same.
 */
export function compareResults(recorded: ExperimentResults, fresh: ExperimentResults): string[] {
  if (stableContent(recorded) === stableContent(fresh)) return [];
  const name = fresh.experiment.name;
  const lines: string[] = [];

  const volatile = new Set<string>(VOLATILE_MANIFEST_FIELDS);
  for (const [field, value] of Object.entries(fresh.manifest)) {
    if (volatile.has(field)) continue;
    const before = JSON.stringify((recorded.manifest as unknown as Record<string, unknown>)[field]);
    if (before !== JSON.stringify(value)) lines.push(`${name}: manifest ${field} changed: ${before} → ${JSON.stringify(value)}`);
  }
  if (JSON.stringify(recorded.experiment) !== JSON.stringify(fresh.experiment)) {
    lines.push(`${name}: the experiment definition changed (ablations, seeds, scenarios or asks)`);
  }

  const recordedTrials = new Map(recorded.trials.map((t) => [trialKey(t), t]));
  const metrics = metricNames(fresh.experiment.k);
  const readers = metrics.map(metricReader);
  const meanShift = new Map<string, { before: number; after: number; n: number }>();
  for (const trial of fresh.trials) {
    const before = recordedTrials.get(trialKey(trial));
    if (!before) {
      lines.push(`${name}: ablation ${trial.ablation}, scenario ${trial.scenario}, seed ${trial.seed}: not in the recorded results`);
      continue;
    }
    recordedTrials.delete(trialKey(trial));
    const beforeAsks = new Map(before.asks.map((a) => [a.ask, a]));
    for (const ask of trial.asks) {
      const old = beforeAsks.get(ask.ask);
      if (!old) {
        lines.push(`${name}: ablation ${trial.ablation}, scenario ${trial.scenario}, ask ${ask.ask}: not in the recorded results`);
        continue;
      }
      let metricChanged = false;
      for (const [m, metric] of metrics.entries()) {
        const a = readers[m](old);
        const b = readers[m](ask);
        const key = `${trial.ablation}\u0000${metric}`;
        const shift = meanShift.get(key) ?? { before: 0, after: 0, n: 0 };
        meanShift.set(key, { before: shift.before + (a ?? 0), after: shift.after + (b ?? 0), n: shift.n + 1 });
        if (a === b) continue;
        metricChanged = true;
        const by = a !== null && b !== null ? ` (${signed(b - a)})` : "";
        lines.push(
          `${name}: ablation ${trial.ablation}, metric ${metric}, scenario ${trial.scenario}, ask ${ask.ask}, seed ${trial.seed}: ${fmt(a)} → ${fmt(b)}${by}`,
        );
      }
      if (!metricChanged && JSON.stringify(old) !== JSON.stringify(ask)) {
        lines.push(`${name}: ablation ${trial.ablation}, scenario ${trial.scenario}, ask ${ask.ask}, seed ${trial.seed}: kept ids or score breakdown changed`);
      }
    }
  }
  for (const missing of recordedTrials.values()) {
    lines.push(`${name}: ablation ${missing.ablation}, scenario ${missing.scenario}, seed ${missing.seed}: recorded but not produced any more`);
  }
  for (const [key, { before, after, n }] of meanShift) {
    if (before === after) continue;
    const [ablation, metric] = key.split("\u0000");
    lines.push(`${name}: ablation ${ablation}, metric ${metric}: mean ${fmt(before / n)} → ${fmt(after / n)} (${signed((after - before) / n)})`);
  }
  lines.push(...compareSweeps(name, recorded.sweep, fresh.sweep));
  if (lines.length === 0) lines.push(`${name}: results differ from the recording in formatting only; re-record with --update`);
  return lines;
}

/** What changed in a sweep: its selection first (what a reader acts on), then the points' values. */
function compareSweeps(name: string, recorded: ExperimentResults["sweep"], fresh: ExperimentResults["sweep"]): string[] {
  if (recorded === undefined && fresh === undefined) return [];
  if (recorded === undefined || fresh === undefined) return [`${name}: the sweep is ${fresh === undefined ? "recorded but not produced any more" : "not in the recorded results"}`];
  const lines: string[] = [];
  if (recorded.selection.chosen !== fresh.selection.chosen) {
    lines.push(`${name}: sweep: the point chosen on all asks changed: ${recorded.selection.chosen} → ${fresh.selection.chosen}`);
  }
  fresh.selection.folds.forEach((fold, i) => {
    const before = recorded.selection.folds[i];
    if (before === undefined) lines.push(`${name}: sweep: fold ${i + 1} is not in the recorded results`);
    else if (before.chosen !== fold.chosen || before.heldOutScore !== fold.heldOutScore) {
      lines.push(`${name}: sweep: fold ${i + 1} chose ${before.chosen} (held-out ${fmt(before.heldOutScore)}) → ${fold.chosen} (held-out ${fmt(fold.heldOutScore)})`);
    }
  });
  for (const point of fresh.points) {
    const before = recorded.values[point.id];
    const after = fresh.values[point.id];
    if (before === undefined) {
      lines.push(`${name}: sweep: point ${point.id} is not in the recorded results`);
      continue;
    }
    const changed = after.filter((v, i) => v !== before[i]).length;
    if (changed > 0 || before.length !== after.length) lines.push(`${name}: sweep: point ${point.id} (${point.label}): ${changed} ask(s) changed their objective`);
  }
  if (lines.length === 0 && JSON.stringify(recorded) !== JSON.stringify(fresh)) lines.push(`${name}: the sweep's definition changed (points, objective or folds)`);
  return lines;
}

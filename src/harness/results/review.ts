import { isUnitBounded, metricNames, metricReader } from "../metrics.js";
import { compareToBaseline, type Structure } from "../stats/index.js";
import { trialKey } from "./trial-key.js";
import type { ExperimentResults } from "./types.js";

/** The seed of the review's statistics; the clustered comparison draws nothing, the independent one bootstraps. */
const REVIEW_SEED = 20240501;

/** One headline metric of one ablation, recorded (before) and fresh (after), paired over the same (scenario, ask, seed). */
export interface MetricShift {
  ablation: string;
  metric: string;
  before: number;
  after: number;
  /** Mean of (after − before), with its interval (the harness's paired, clustered comparison). */
  diff: number;
  lo: number;
  hi: number;
  /** Values whose after differs from their before. */
  changed: number;
  pairs: number;
}

/**
 * What a reviewer of a changed run reads first: each ablation's headline metrics before and after,
 * with Δ and its interval, computed as the reports compare an ablation with its baseline (the
 * seeds of an ask averaged, clustered as the experiment says), so the two never disagree on method.
 */
export function headlineShifts(recorded: ExperimentResults, fresh: ExperimentResults): MetricShift[] {
  const known = new Set(metricNames(fresh.experiment.k));
  const metrics = fresh.experiment.headline.filter((m) => known.has(m));
  const before = new Map(recorded.trials.map((t) => [trialKey(t), t]));
  const shifts: MetricShift[] = [];
  for (const { name: ablation } of fresh.experiment.ablations) {
    for (const metric of metrics) {
      const read = metricReader(metric);
      const a: number[] = [];
      const b: number[] = [];
      const items: string[] = [];
      const scenarios: string[] = [];
      for (const trial of fresh.trials) {
        if (trial.ablation !== ablation) continue;
        const old = before.get(trialKey(trial));
        if (old === undefined) continue;
        const oldAsks = new Map(old.asks.map((ask) => [ask.ask, ask]));
        for (const ask of trial.asks) {
          const was = oldAsks.get(ask.ask);
          const x = was === undefined ? null : read(was);
          const y = read(ask);
          if (x === null || y === null) continue;
          a.push(x);
          b.push(y);
          items.push(`${trial.scenario}\u0000${ask.ask}`);
          scenarios.push(trial.scenario);
        }
      }
      if (a.length === 0) continue;
      const cluster = fresh.experiment.cluster;
      const structure: Structure = cluster === "none" ? {} : { items, clusters: cluster === "scenario" ? scenarios : items };
      // Bounded as the reports bound it, so the check's interval is the one the reports print.
      const c = compareToBaseline(a, b, { seed: REVIEW_SEED, ...structure, ...(isUnitBounded(metric) ? { bounds: [0, 1] as const } : {}) });
      shifts.push({ ablation, metric, before: c.baselineMean, after: c.ablationMean, diff: c.meanDiff, lo: c.lo, hi: c.hi, changed: a.filter((x, i) => x !== b[i]).length, pairs: a.length });
    }
  }
  return shifts;
}

/** Which ablations' policies differ between the recording and the fresh run, by setting. */
export function policyChanges(recorded: ExperimentResults, fresh: ExperimentResults): string[] {
  const old = new Map(recorded.experiment.ablations.map((a) => [a.name, a]));
  const lines: string[] = [];
  for (const ablation of fresh.experiment.ablations) {
    const was = old.get(ablation.name);
    old.delete(ablation.name);
    if (was === undefined) {
      lines.push(`${ablation.name}: new`);
      continue;
    }
    const settings = changedSettings(was.policy ?? was.system, ablation.policy ?? ablation.system, "");
    if (settings.length > 0) lines.push(`${ablation.name}: ${settings.join(", ")}`);
  }
  for (const name of old.keys()) lines.push(`${name}: no longer run`);
  return lines;
}

function changedSettings(a: unknown, b: unknown, path: string): string[] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((key) => changedSettings(a[key], b[key], path === "" ? key : `${path}.${key}`));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [`${path || "policy"} ${JSON.stringify(a) ?? "unset"} → ${JSON.stringify(b) ?? "unset"}`];
}

/**
 * Rounding slack of the tolerance test: an interval printed as "−0.050" against a tolerance of
 * 0.05 may be −0.05000000000000001 in binary, and must not fail a gate the reader sees it meets.
 */
const ROUNDING = 1e-9;

/**
 * Whether a headline shift is within ±tolerance: its whole 95% interval lies in [−tolerance,
 * +tolerance], so |Δ| ≤ tolerance too. The interval, not Δ alone, decides, so that a change that
 * moves many asks both ways and nets out to a small Δ still fails the gate. A metric whose values
 * did not change on any ask is within any tolerance, however wide the interval its few clusters
 * allow.
 */
export function withinTolerance(shift: Pick<MetricShift, "lo" | "hi" | "changed">, tolerance: number): boolean {
  return shift.changed === 0 || (shift.lo >= -tolerance - ROUNDING && shift.hi <= tolerance + ROUNDING);
}

/**
 * Whether a tolerance can judge an experiment's change, and if not, why. A tolerance measures
 * headline shifts of asks run before and after, so it cannot judge trials or asks that were added
 * or removed, a sweep that changed, or an experiment with no headline metric to pair.
 */
export function toleranceVerdict(recorded: ExperimentResults, fresh: ExperimentResults, shifts: readonly MetricShift[], tolerance: number): { tolerated: true } | { tolerated: false; why: string } {
  const grid = (results: ExperimentResults) =>
    results.trials.map((t) => `${trialKey(t)}\u0000${t.asks.map((a) => a.ask).join("\u0001")}`).sort().join("\n");
  if (grid(recorded) !== grid(fresh)) return { tolerated: false, why: "trials or asks were added or removed, which no tolerance measures" };
  if (JSON.stringify(recorded.sweep) !== JSON.stringify(fresh.sweep)) return { tolerated: false, why: "the sweep changed, which no tolerance measures" };
  if (shifts.length === 0) return { tolerated: false, why: "no headline metric could be paired before and after" };
  if (shifts.every((s) => s.changed === 0)) return { tolerated: false, why: "the differences lie outside the headline metrics, which no tolerance measures" };
  const outside = shifts.filter((s) => !withinTolerance(s, tolerance));
  if (outside.length > 0) {
    const which = outside.map((s) => `${s.ablation} ${s.metric} ${formatDelta(s)}`).join("; ");
    return { tolerated: false, why: `outside ±${tolerance}: ${which}` };
  }
  return { tolerated: true };
}

const f3 = (x: number) => x.toFixed(3);
const signed = (x: number) => `${x >= 0 ? "+" : "−"}${f3(Math.abs(x))}`;

/** "Δ −0.125 [−0.250, +0.000]": a shift's difference and its interval, as every view of the review prints them. */
export const formatDelta = (s: Pick<MetricShift, "diff" | "lo" | "hi">) => `Δ ${signed(s.diff)} [${signed(s.lo)}, ${signed(s.hi)}]`;

/** "1.000 → 0.000  Δ −1.000 [−1.000, −1.000]  (2 of 2 values changed)": one shift, after its ablation and metric. */
export const formatShift = (s: MetricShift) => `${f3(s.before)} → ${f3(s.after)}  ${formatDelta(s)}  (${s.changed} of ${s.pairs} values changed)`;

/** The review as lines: the Δ table of the ablations that changed, the unchanged named in one line, then the policy changes. */
export function renderReview(name: string, shifts: readonly MetricShift[], policies: readonly string[], tolerance?: number): string[] {
  const moved = shifts.filter((s) => s.changed > 0);
  const still = [...new Set(shifts.map((s) => s.ablation))].filter((a) => !moved.some((s) => s.ablation === a));
  const lines = [`${name}: headline metrics, recorded → fresh (Δ with its 95% interval, per comparison):`];
  for (const s of moved) {
    lines.push(`  ${s.ablation}  ${s.metric}  ${formatShift(s)}${tolerance === undefined ? "" : withinTolerance(s, tolerance) ? `  within ±${tolerance}` : `  OUTSIDE ±${tolerance}`}`);
  }
  if (moved.length === 0) lines.push("  no headline metric changed on any ask");
  if (still.length > 0) lines.push(`  unchanged: ${still.join(", ")}`);
  lines.push(...(policies.length === 0 ? [`${name}: no policy changed`] : policies.map((p) => `${name}: policy changed: ${p}`)));
  return lines;
}

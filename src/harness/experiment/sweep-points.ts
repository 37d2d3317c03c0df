/**
 * The points of a sweep: each a policy patch over the experiment's base policy, like an ablation,
 * with a stable id (p001, p002, …) and a label generated from what it changes.
 */
import type { RetrievalPolicy } from "../../memory/index.js";
import { fileError } from "../../shared/errors.js";
import { parseDuration } from "../duration.js";
import { describeChanges } from "../policy/describe.js";
import { applyPatch } from "../policy/patch.js";
import { type PolicyPatch, policyPatchSchema, policySchema } from "../policy/schema.js";
import { createRng } from "../stats/index.js";
import type { SweepSpec, SweepValue } from "./sweep-schema.js";

export interface SweepPoint {
  id: string;
  /** The value of each swept parameter, as the policy holds it (durations in ms). */
  values: Record<string, SweepValue>;
  patch: PolicyPatch;
  policy: RetrievalPolicy;
  /** What the point changes relative to the sweep's base policy, generated from the policies. */
  label: string;
}

export interface ResolvedSweep {
  spec: SweepSpec;
  parameters: string[];
  /** The policy every point patches: the experiment's, with touch off when the sweep says so. */
  base: RetrievalPolicy;
  points: SweepPoint[];
  /**
   * Whether one pass of each timeline serves every point: no point touches, and every point
   * writes back as the base does, so the store evolves the same under all of them.
   */
  sharedTimeline: boolean;
  /** The one embedding model the points that rank by embedding use (the experiment's, unless a point names its own). */
  embeddingModel?: string;
}

/** How many offending points an error lists before it says how many more there are. */
const LISTED_INVALID = 5;
/** Random values are rounded so that labels stay readable and results stay stable. */
const RANDOM_DIGITS = 4;

/** The policy a sweep's points patch: the experiment's, with touch off when the sweep says so. */
export function sweepBase(spec: SweepSpec, experimentBase: RetrievalPolicy): RetrievalPolicy {
  return spec.touch === "off" ? applyPatch(experimentBase, { touch: false }) : experimentBase;
}

export function resolveSweep(file: string, spec: SweepSpec, experimentBase: RetrievalPolicy): ResolvedSweep {
  const base = sweepBase(spec, experimentBase);
  const combos = spec.grid !== undefined ? gridValues(spec.grid) : randomValues(spec.random!);
  const parameters = Object.keys(spec.grid ?? spec.random!.ranges);
  const width = Math.max(3, String(combos.length).length);
  const invalid: string[] = [];
  const points: SweepPoint[] = [];
  combos.forEach((values, i) => {
    const id = `p${String(i + 1).padStart(width, "0")}`;
    const checkedPatch = policyPatchSchema.safeParse(patchOf(values));
    if (!checkedPatch.success) {
      const unknown = checkedPatch.error.issues.find((issue) => issue.code === "unrecognized_keys");
      if (unknown !== undefined) {
        throw fileError(file, `at sweep: ${[...unknown.path, ...unknown.keys].join(".")} is not a policy setting a sweep can vary`);
      }
      invalid.push(invalidPoint(id, values, checkedPatch.error.issues[0]));
      return;
    }
    const policy = policySchema.safeParse(applyPatch(base, checkedPatch.data));
    if (!policy.success) {
      invalid.push(invalidPoint(id, values, policy.error.issues[0]));
      return;
    }
    points.push({ id, values, patch: checkedPatch.data, policy: policy.data, label: describeChanges(base, policy.data) });
  });
  if (invalid.length > 0) {
    const more = invalid.length > LISTED_INVALID ? `; and ${invalid.length - LISTED_INVALID} more` : "";
    throw fileError(file, `at sweep: ${invalid.length} of ${combos.length} points are not valid policies: ${invalid.slice(0, LISTED_INVALID).join("; ")}${more}`);
  }
  const sharedTimeline = points.every((p) => !p.policy.touch && p.policy.writeBack === base.writeBack);
  return { spec, parameters, base, points, sharedTimeline };
}

function invalidPoint(id: string, values: Record<string, SweepValue>, issue: { path: PropertyKey[]; message: string }): string {
  return `${id} (${describeValues(values)}): ${issue.path.map(String).join(".")}: ${issue.message}`;
}

/** "score.weights [1, 0, 0], score.unitMs 1d": a point's values as a reader wrote them. */
export function describeValues(values: Record<string, SweepValue>): string {
  return Object.entries(values)
    .map(([path, value]) => `${path} ${formatValue(path, value)}`)
    .join(", ");
}

export function formatValue(path: string, value: SweepValue): string {
  if (isTime(path) && typeof value === "number") return durationText(value);
  return Array.isArray(value) ? `[${value.join(", ")}]` : String(value);
}

const DURATIONS: readonly [number, string][] = [
  [604_800_000, "w"],
  [86_400_000, "d"],
  [3_600_000, "h"],
  [60_000, "m"],
  [1_000, "s"],
];

function durationText(ms: number): string {
  const unit = DURATIONS.find(([size]) => ms % size === 0);
  return unit === undefined ? `${ms}ms` : `${ms / unit[0]}${unit[1]}`;
}

/** Fields of the policy that hold a time, where a duration string ("1d") is accepted. */
function isTime(path: string): boolean {
  return path.split(".").at(-1) === "unitMs";
}

/** A value as the policy holds it: a duration string becomes milliseconds. */
function policyValue(path: string, value: SweepValue): SweepValue {
  if (!isTime(path) || typeof value !== "string") return value;
  return parseDuration(value) ?? value;
}

function gridValues(grid: Record<string, SweepValue[]>): Record<string, SweepValue>[] {
  let combos: Record<string, SweepValue>[] = [{}];
  for (const [path, values] of Object.entries(grid)) {
    combos = combos.flatMap((combo) => values.map((value) => ({ ...combo, [path]: policyValue(path, value) })));
  }
  return combos;
}

function randomValues(random: NonNullable<SweepSpec["random"]>): Record<string, SweepValue>[] {
  const rng = createRng(random.seed);
  const round = (x: number) => Number(x.toFixed(RANDOM_DIGITS));
  const draw = (path: string, low: SweepValue, high: SweepValue): SweepValue => {
    const lo = policyValue(path, low);
    const hi = policyValue(path, high);
    if (typeof lo === "number" && typeof hi === "number") {
      const x = lo + rng.nextFloat() * (hi - lo);
      return isTime(path) ? Math.round(x) : round(x);
    }
    if (Array.isArray(lo) && Array.isArray(hi) && lo.length === hi.length) return lo.map((l, i) => round(l + rng.nextFloat() * (hi[i] - l)));
    // Not a numeric range: the policy check names the point.
    return lo;
  };
  return Array.from({ length: random.points }, () =>
    Object.fromEntries(Object.entries(random.ranges).map(([path, [low, high]]) => [path, draw(path, low, high)])),
  );
}

/** The policy patch that sets each dotted path to its value. */
export function patchOf(values: Record<string, SweepValue>): PolicyPatch {
  const patch: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(values)) setPath(patch, path.split("."), value);
  return patch as PolicyPatch;
}

function setPath(target: Record<string, unknown>, keys: string[], value: unknown): void {
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
}

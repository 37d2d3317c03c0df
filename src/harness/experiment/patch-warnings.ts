/**
 * Patches that change nothing. A setting can be overridden (a `decayRate` where every kind that
 * ranks by score has a decay of its own) or unused (the pooled rule of a per-kind policy), and a
 * patch of such settings runs an experiment identical to the one without it, while its file says
 * otherwise. Such a patch is found by comparing what each policy retrieves by, with and without it.
 */
import { policyKey, type RetrievalPolicy } from "../../memory/index.js";
import type { Ablation } from "../policy/ablations.js";
import { findAblation } from "../policy/ablations.js";
import { applyPatch } from "../policy/patch.js";
import type { PolicyPatch } from "../policy/schema.js";
import type { ExperimentSpec } from "./schema.js";
import { type ResolvedSweep, sweepBase } from "./sweep-points.js";

/** An ablation's policy: its built-in patch over the base, then the experiment's own patch of it. */
export function ablationPolicy(base: RetrievalPolicy, builtIn: Ablation, patch?: PolicyPatch): RetrievalPolicy {
  const policy = applyPatch(base, builtIn.patch(base));
  return patch === undefined ? policy : applyPatch(policy, patch);
}

const isEmpty = (patch: PolicyPatch) => Object.keys(patch).length === 0;

/**
 * The warnings of an experiment whose patches change nothing: its `policyPatch`, when no ablation
 * and no sweep point retrieves differently for it (`base` is the policy with it, `unpatched` the
 * same without it), and each custom ablation's `patch`, when its policy retrieves as the one it
 * starts from. The ablations are known to be valid: the loader resolved them first.
 */
export function patchWarnings(file: string, spec: ExperimentSpec, base: RetrievalPolicy, unpatched: RetrievalPolicy, sweep?: ResolvedSweep): string[] {
  const warnings: string[] = [];
  const entries = spec.ablations.map((entry) => (typeof entry === "string" ? { name: entry, from: entry } : { ...entry, from: entry.from ?? "full" }));
  const policiesOf = (start: RetrievalPolicy) => [
    ...entries.map((entry) => ablationPolicy(start, findAblation(entry.from)!, "patch" in entry ? entry.patch : undefined)),
    ...(sweep === undefined ? [] : sweep.points.map((point) => applyPatch(sweepBase(sweep.spec, start), point.patch))),
  ];
  if (!isEmpty(spec.policyPatch)) {
    const without = policiesOf(unpatched).map(policyKey);
    if (policiesOf(base).every((policy, i) => policyKey(policy) === without[i])) {
      warnings.push(`${file}: at policyPatch: the patch changes nothing in any policy of the experiment: every setting it names is overridden or unused by each ablation${sweep === undefined ? "" : " and sweep point"}`);
    }
  }
  entries.forEach((entry, i) => {
    if (!("patch" in entry) || entry.patch === undefined || isEmpty(entry.patch)) return;
    const builtIn = findAblation(entry.from)!;
    if (policyKey(ablationPolicy(base, builtIn, entry.patch)) === policyKey(ablationPolicy(base, builtIn))) {
      warnings.push(`${file}: at ablations[${i}].patch: ablation "${entry.name}" retrieves exactly as "${entry.from}" does: every setting its patch names is overridden or unused`);
    }
  });
  return warnings;
}

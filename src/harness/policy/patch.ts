import type { RetrievalPolicy } from "../../memory/index.js";
import type { PolicyPatch } from "./schema.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Deep-merges plain objects; arrays and scalars in the patch replace what they cover. */
function merge(base: Json, patch: Json | undefined): Json {
  if (patch === undefined) return base;
  if (!isObject(base) || !isObject(patch)) return structuredClone(patch);
  const out: Record<string, Json> = { ...base };
  for (const [key, value] of Object.entries(patch)) out[key] = merge(base[key] as Json, value);
  return out;
}

export function applyPatch(policy: RetrievalPolicy, patch: PolicyPatch): RetrievalPolicy {
  return merge(structuredClone(policy) as unknown as Json, patch as unknown as Json) as unknown as RetrievalPolicy;
}

/** One patch that does what applying `first`, then `second`, does. */
export function mergePatches(first: PolicyPatch, second: PolicyPatch): PolicyPatch {
  return merge(structuredClone(first) as unknown as Json, second as unknown as Json) as unknown as PolicyPatch;
}

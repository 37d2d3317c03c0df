/**
 * What a retrieval's result depends on in a policy, as a key: two policies with the same key give
 * the same block for any ask over any store. Retrieval shares a section between policies that
 * agree on its key (a sweep's points), and an experiment warns of a patch that leaves every key as
 * it was, so the two read one definition of "changes something".
 */
import { byCodeUnit } from "../shared/order.js";
import { HYBRID_DEFAULTS } from "./relevance/hybrid.js";
import { defaultStopwords } from "./relevance/index.js";
import { type PlannedSection, sectionPlan } from "./section-plan.js";
import { KINDS, type RetrievalPolicy } from "./types.js";

/**
 * The settings a section's result depends on, for one ask over one store state: its rule and,
 * when ordered by score, the effective score settings. The unit of decay matters only where some
 * decay rate the section uses is below 1 (a rate of 1 gives recency 1 at any unit).
 */
export function sectionKey({ name, rule, score: config }: PlannedSection): string {
  const { order, fit, limit, quota, requireRelevance } = rule;
  const hybrid = config.relevance === "hybrid" ? { ...HYBRID_DEFAULTS, ...config.hybrid } : null;
  const relevance = [config.relevance, config.stopwords ?? defaultStopwords(config.relevance), hybrid && [hybrid.fusion, hybrid.weight, hybrid.k]];
  const head = [name, order, fit, limit, quota, requireRelevance];
  if (order === "newest") return JSON.stringify([...head, requireRelevance ? relevance : null]);
  const decays = (name === "pooled" ? KINDS : [name]).map((kind) => config.kindDecay[kind] ?? config.decayRate);
  const unitMs = config.recency !== "rank" && decays.every((d) => d === 1) ? null : config.unitMs;
  // Every other score setting counts as it is, so a setting added later cannot be left out.
  const { kindDecay: _, decayRate: __, stopwords: ___, relevance: ____, ...rest } = { ...config, unitMs };
  return JSON.stringify([...head, relevance, decays, Object.entries(rest).sort(([a], [b]) => byCodeUnit(a, b))]);
}

/**
 * The key of a whole policy: the sections it builds (the pooled rule plays no part in a per-kind
 * policy, nor the per-kind rules in a pooled one), whether it touches, and whether it writes back.
 */
export function policyKey(policy: RetrievalPolicy): string {
  return JSON.stringify([policy.touch, policy.writeBack, sectionPlan(policy).map(sectionKey)]);
}

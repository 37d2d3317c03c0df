/**
 * The sections a policy builds, each with the score settings it ranks by. A section's own score
 * settings override the policy's one by one, so a section can change one knob (its relevance
 * backend, say) and inherit the rest; retrieval, the descriptions of policies and every caller that
 * asks what a section ranks by read that merge from here, so they cannot disagree on it.
 */
import { KINDS, type RetrievalPolicy, type ScoreConfig, type SectionName, type SectionRule } from "./types.js";

export interface PlannedSection {
  name: SectionName;
  rule: SectionRule;
  /** The policy's score settings with the section's own over them. */
  score: ScoreConfig;
}

/** One pooled section, or one section per kind in KINDS order: the block's sections, in order. */
export function sectionPlan(policy: RetrievalPolicy): PlannedSection[] {
  return policy.mode === "pooled" ? [planned(policy, "pooled", policy.pooled)] : KINDS.map((kind) => planned(policy, kind, policy.sections[kind]));
}

function planned(policy: RetrievalPolicy, name: SectionName, rule: SectionRule): PlannedSection {
  return { name, rule, score: { ...policy.score, ...rule.score } };
}

/**
 * What a policy's sections rank by, read the way retrieval reads it: a section ordered by score
 * takes its own score settings over the policy's. Callers ask this to know whether queries and
 * memories need vectors, and from which model.
 */
import { needsEmbedding } from "./relevance/index.js";
import { sectionPlan } from "./section-plan.js";
import type { RetrievalPolicy, ScoreConfig } from "./types.js";

/** The score settings of every section that orders by score, as retrieval resolves them. */
export function rankingConfigs(policy: RetrievalPolicy): ScoreConfig[] {
  return sectionPlan(policy).flatMap((section) => (section.rule.order === "score" ? [section.score] : []));
}

/** Whether any section retrieval uses ranks by embedding (alone or fused in `hybrid`). */
export function usesEmbedding(policy: RetrievalPolicy): boolean {
  return rankingConfigs(policy).some((config) => needsEmbedding(config.relevance));
}

/**
 * The embedding model the policy's sections name (`score.embeddingModel`): undefined when none
 * ranks by embedding or none names one (the caller's default then applies). Two sections naming
 * two models cannot share one query vector, so that is an error.
 */
export function policyEmbeddingModel(policy: RetrievalPolicy): string | undefined {
  const named = new Set(rankingConfigs(policy).filter((c) => needsEmbedding(c.relevance) && c.embeddingModel !== undefined).map((c) => c.embeddingModel!));
  if (named.size > 1) throw new Error(`the policy's sections rank by ${named.size} embedding models (${[...named].join(", ")}); one query has one vector, so name one model`);
  return [...named][0];
}

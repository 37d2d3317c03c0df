/**
 * A zod schema for RetrievalPolicy, so policies read from disk (experiment files, patched
 * ablations) are checked before they reach retrieval.
 */
import { z } from "zod";
import type { RetrievalPolicy } from "./types.js";

const weight = z.number().finite();
const rate = z.number().finite().positive().max(1);
const backend = z.enum(["words", "bm25", "embedding", "hybrid"]);

export const scoreConfigSchema = z.strictObject({
  weights: z.tuple([weight, weight, weight]),
  decayRate: rate,
  kindDecay: z.strictObject({
    working: rate.optional(),
    semantic: rate.optional(),
    episodic: rate.optional(),
    procedural: rate.optional(),
  }),
  unitMs: z.number().finite().positive(),
  recency: z.enum(["time", "rank"]).optional(),
  recencyOrder: z.enum(["ascending", "descending"]).optional(),
  normalise: z.enum(["none", "minmax"]),
  relevance: backend,
  stopwords: z.boolean().optional(),
  hybrid: z
    .strictObject({
      fusion: z.enum(["rrf", "convex"]).optional(),
      weight: z.number().min(0).max(1).optional(),
      k: z.number().finite().positive().optional(),
    })
    .optional(),
  embeddingModel: z.string().min(1).optional(),
});

export const sectionRuleSchema = z.strictObject({
  order: z.enum(["newest", "score"]),
  score: scoreConfigSchema.partial().optional(),
  fit: z.enum(["stop", "skip"]),
  limit: z.number().int().nonnegative(),
  quota: z.number().int().nonnegative().nullable(),
  requireRelevance: z.boolean(),
});

export const retrievalPolicySchema = z.strictObject({
  mode: z.enum(["per-kind", "pooled"]),
  score: scoreConfigSchema,
  sections: z.strictObject({
    working: sectionRuleSchema,
    semantic: sectionRuleSchema,
    episodic: sectionRuleSchema,
    procedural: sectionRuleSchema,
  }),
  pooled: sectionRuleSchema,
  touch: z.boolean(),
  writeBack: z.boolean(),
}) satisfies z.ZodType<RetrievalPolicy>; // keeps the schema and the hand-written type from drifting apart

/**
 * The shape of the answer-level results file. Everything in it is plain data written with sorted
 * keys, so a replay of the same recordings gives the same bytes apart from the volatile fields.
 */
import { z } from "zod";

const keySchema = z.union([z.string(), z.array(z.string())]);

const answerAskSchema = z
  .object({
    ask: z.string(),
    question: z.string(),
    answer: z.string(),
    keys: z.array(keySchema),
    /** Per key, whether it matched the answer once both are normalised. */
    matched: z.array(z.boolean()),
    missing: z.array(keySchema),
    /** Share of keys matched. */
    score: z.number().min(0).max(1),
    allMatched: z.boolean(),
    /** Ids of the memories in the block the answer was given from. */
    kept: z.array(z.string()),
  })
  .strict();
export type AnswerAsk = z.infer<typeof answerAskSchema>;

const importanceCountSchema = z
  .object({
    /** Memories (scenario writes, write-backs and insights) rated by the model. */
    rated: z.number().int().min(0),
    /** Ratings whose reply held no number, so the stated default was used. */
    fallbacks: z.number().int().min(0),
  })
  .strict();

const answerTrialSchema = z
  .object({
    scenario: z.string(),
    condition: z.string(),
    seed: z.number().int(),
    importance: importanceCountSchema,
    /** How many times reflection ran, and the insights it stored. */
    reflections: z.number().int().min(0),
    insights: z.array(z.object({ id: z.string(), text: z.string(), evidence: z.array(z.string()) }).strict()),
    asks: z.array(answerAskSchema),
  })
  .strict();
export type AnswerTrial = z.infer<typeof answerTrialSchema>;

const answerManifestSchema = z
  .object({
    gitCommit: z.string(),
    gitDirty: z.boolean(),
    /** The models that answered, as the recording entries name them. */
    models: z.array(z.object({ name: z.string(), digest: z.string().nullable() }).strict()),
    recordings: z.object({ file: z.string(), sha256: z.string(), calls: z.number().int().min(0) }).strict(),
    experimentHash: z.string(),
    tokenizerSha256: z.string(),
  })
  .strict();

/** Manifest fields that describe the run rather than its outcome. */
export const VOLATILE_ANSWER_FIELDS = ["gitCommit", "gitDirty"] as const;

export const ANSWER_FORMAT = "recollect-answers/1";

export const answerResultsSchema = z
  .object({
    format: z.literal(ANSWER_FORMAT),
    experiment: z.object({ name: z.string(), file: z.string() }).strict(),
    model: z.string(),
    seeds: z.array(z.number().int()),
    conditions: z.array(z.object({ name: z.string(), ablation: z.string(), reflection: z.boolean(), description: z.string() }).strict()),
    reflectionThreshold: z.number(),
    importanceFallback: z.number(),
    manifest: answerManifestSchema,
    /** Summed over every trial. */
    importance: importanceCountSchema,
    trials: z.array(answerTrialSchema),
  })
  .strict();
export type AnswerResults = z.infer<typeof answerResultsSchema>;

import { z } from "zod";
import { KINDS } from "../../memory/index.js";
import { normaliseAnswer } from "../../model/grade.js";
import { durationMs, durationSchema, parseDuration } from "../duration.js";

/**
 * A scenario file: a timeline on a virtual clock. Times inside a step are relative to the clock
 * at that step (a duration such as "-3d") or absolute (an ISO date), so a timeline reads in order.
 */

const idSchema = z
  .string()
  .min(1)
  .regex(/^[A-Za-z0-9_.:\-/]+$/, "ids use letters, digits and _ . : - / only");

const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;
const isoDate = z.string().refine((s) => ISO_DATE.test(s) && !Number.isNaN(Date.parse(s)), {
  message: "expected an ISO date such as 2024-05-01T09:00:00Z",
});

/** A point in time: an offset from the step's clock ("-3d", "2h", or hours) or an ISO date. */
const timeSchema = z.union([z.number(), z.string()]).transform((value, ctx): TimeSpecValue => {
  if (typeof value === "string" && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))) {
    return { at: Date.parse(value) };
  }
  if (typeof value === "string" && parseDuration(value) === undefined) {
    ctx.addIssue({ code: "custom", message: `expected an ISO date or an offset such as "-3d", got "${value}"` });
    return z.NEVER;
  }
  const offset = durationMs(value);
  if ("problem" in offset) {
    ctx.addIssue({ code: "custom", message: offset.problem });
    return z.NEVER;
  }
  return { offset: offset.ms };
});
type TimeSpecValue = { at: number; offset?: undefined } | { offset: number; at?: undefined };
export type TimeSpec = z.output<typeof timeSchema>;

const memorySpecSchema = z
  .object({
    id: idSchema,
    kind: z.enum(KINDS),
    text: z.string().min(1),
    /**
     * A 1–10 rating of the memory's own. Without one the memory is unrated: it gets the scale's
     * midpoint and no seed's noise (a constant is not a rating to perturb).
     */
    importance: z.number().min(1).max(10).optional(),
    /** When the event happened (episodic). */
    occurred: timeSchema.optional(),
    /** Last access, when it is not the moment of writing. */
    lastAccessed: timeSchema.optional(),
    expires: timeSchema.optional(),
    /** Id of an earlier memory this one corrects. */
    corrects: idSchema.optional(),
    source: z.string().optional(),
    /** An explicit vector, for scenarios about the embedding backend. */
    embedding: z.array(z.number()).min(1).optional(),
  })
  .strict();
export type MemorySpec = z.output<typeof memorySpecSchema>;

/** A key is matched as words once case, accents, punctuation and articles are removed, so it must keep one. */
const answerKeySchema = z.string().refine((key) => normaliseAnswer(key) !== "", {
  message: "an answer key needs a word other than an article (grading ignores case, punctuation and a, an, the)",
});

const askSpecSchema = z
  .object({
    id: idSchema,
    query: z.string().min(1),
    embedding: z.array(z.number()).min(1).optional(),
    /** Gold memory ids, in order of preference. */
    expect: z.array(idSchema).default([]),
    /** Ids that must reach the block; defaults to expect. */
    required: z.array(idSchema).optional(),
    /** Ids whose content is out of date at this ask; any of them in the block is a leak. */
    stale: z.array(idSchema).default([]),
    /** Answer keys for answer-level grading; each entry lists accepted alternatives. */
    answers: z.array(z.union([answerKeySchema, z.array(answerKeySchema).min(1)])).default([]),
    /** A label to break metrics down by (a benchmark's question category). */
    category: z.string().optional(),
  })
  .strict();
export type AskSpec = z.output<typeof askSpecSchema>;

/**
 * A step holds exactly one of `advance`, `remember` or `ask`. It is one object with optional keys
 * rather than a union, so a mistake inside a step is reported at its own path.
 */
const stepSchema = z
  .object({
    advance: durationSchema
      .refine((ms) => ms >= 0, "the clock only moves forward: expected a non-negative duration")
      .optional(),
    remember: z
      .preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(memorySpecSchema).min(1))
      .optional(),
    ask: askSpecSchema.optional(),
  })
  .strict()
  .refine((step) => Object.keys(step).length === 1, "a step holds exactly one of advance, remember or ask");
export type StepSpec = z.output<typeof stepSchema>;

const distractorSchema = memorySpecSchema.omit({ id: true, corrects: true }).strict();
export type DistractorSpec = z.output<typeof distractorSchema>;

/** An ablation this scenario is built to make fail, and the metric on which it should. */
const targetSchema = z
  .object({
    ablation: z.string().min(1),
    metric: z.string().regex(/^(recall_any@\d+|recall_all@\d+|ndcg@\d+|mrr|coverage|leakage|tokens)$/, "expected a metric such as recall_any@1, mrr, coverage or leakage"),
  })
  .strict();

export const scenarioSchema = z
  .object({
    name: idSchema,
    /** What this scenario is designed to show, and which ablation should fail on it. */
    description: z.string().min(1),
    /** The designed failures: checked in EVALUATION.md against the recorded results. */
    targets: z.array(targetSchema).default([]),
    scope: z.string().min(1).default("user"),
    start: isoDate.default("2024-01-01T00:00:00Z").transform((s) => Date.parse(s)),
    /** Distractor memories a seed may sample from. */
    pool: z.array(distractorSchema).default([]),
    steps: z.array(stepSchema).min(1),
  })
  .strict();
export type ScenarioSpec = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;

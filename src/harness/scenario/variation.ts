/**
 * What each seed varies in a scenario's timeline, as a real deployment would vary it: the
 * experiment file declares it, and the timeline applies it.
 */
import { z } from "zod";

export const variationSchema = z
  .object({
    /** Each clock advance is scaled by a factor drawn from [1 − jitter, 1 + jitter]. */
    jitter: z.number().min(0).max(0.9).default(0),
    /** How many distractor memories each seed samples from a scenario's pool. */
    distractors: z.number().int().min(0).default(0),
    /** Shuffle the order of memories written together, and of consecutive asks. */
    shuffle: z.boolean().default(false),
    /**
     * Importance ratings move by a whole number drawn from [−noise, +noise], clamped to 1–10, as
     * a rater's judgement would vary. Only memories rated in their scenario are moved.
     */
    importanceNoise: z.number().int().min(0).max(9).default(0),
    /**
     * The same noise for unrated memories (every memory of a dataset without ratings): 0 unless an
     * experiment studies what noise on a constant does, since min-max scaling stretches it over
     * the whole range.
     */
    unratedImportanceNoise: z.number().int().min(0).max(9).default(0),
  })
  .strict();
export type Variation = z.output<typeof variationSchema>;

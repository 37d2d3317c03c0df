import { z } from "zod";
import { PRESET_NAMES } from "../../memory/presets.js";
import { policyPatchSchema } from "../policy/schema.js";

const nameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "use lower-case letters, digits and dashes");

const customAblationSchema = z
  .object({
    name: nameSchema,
    description: z.string().default("a custom patch of the base policy"),
    /** Start from a built-in ablation, then apply the patch. */
    from: nameSchema.optional(),
    patch: policyPatchSchema.default({}),
  })
  .strict();

export const variationSchema = z
  .object({
    /** Each clock advance is scaled by a factor drawn from [1 − jitter, 1 + jitter]. */
    jitter: z.number().min(0).max(0.9).default(0),
    /** How many distractor memories each seed samples from a scenario's pool. */
    distractors: z.number().int().min(0).default(0),
    /** Shuffle the order of memories written together, and of consecutive asks. */
    shuffle: z.boolean().default(false),
    /** Importance ratings move by a whole number drawn from [−noise, +noise], clamped to 1–10. */
    importanceNoise: z.number().int().min(0).max(9).default(0),
  })
  .strict();
export type Variation = z.output<typeof variationSchema>;

const locomoSourceSchema = z
  .object({
    /** Question categories to ask (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial). */
    categories: z.array(z.number().int().min(1).max(5)).min(1).default([1, 2, 3, 4]),
    /** Import the dataset's observations as semantic memories linked to their turns. */
    observations: z.boolean().default(true),
  })
  .strict();

export const experimentSchema = z
  .object({
    name: nameSchema,
    description: z.string().min(1),
    /** Scenario files or globs, relative to the repository root. */
    scenarios: z.array(z.string().min(1)).default([]),
    /** A public benchmark to import instead of (or beside) scenario files. */
    dataset: z.object({ locomo: locomoSourceSchema }).strict().optional(),
    /** The preset the ablations patch. */
    policy: z.enum(PRESET_NAMES).default("full"),
    /** Applied to the preset before any ablation. */
    policyPatch: policyPatchSchema.default({}),
    baseline: nameSchema.default("full"),
    ablations: z.array(z.union([nameSchema, customAblationSchema])).min(1),
    seeds: z.array(z.number().int().min(0)).min(1),
    variation: variationSchema.default({ jitter: 0, distractors: 0, shuffle: false, importanceNoise: 0 }),
    k: z.array(z.number().int().positive()).min(1).default([1, 3, 5]),
    /** Count a memory whose `source` is a gold id as that gold memory (e.g. an observation for its turn). */
    matchSource: z.boolean().default(false),
    /** Record kept ids and score breakdowns per ask (large benchmarks keep ranks only). */
    detail: z.boolean().default(true),
  })
  .strict()
  .refine((e) => e.scenarios.length > 0 || e.dataset !== undefined, {
    message: "an experiment needs scenarios or a dataset",
    path: ["scenarios"],
  });
export type ExperimentSpec = z.output<typeof experimentSchema>;

import { z } from "zod";
import { PRESET_NAMES } from "../../memory/presets.js";
import { metricNames } from "../metrics.js";
import { policyPatchSchema } from "../policy/schema.js";
import { sweepSchema } from "../sweep/schema.js";

const nameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "use lower-case letters, digits and dashes");

const customAblationSchema = z
  .object({
    name: nameSchema,
    /** Why the ablation is run. Reports state its settings from the patch itself. */
    description: z.string().optional(),
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

/** A conversation JSON Lines file (see schemas/conversation.schema.json): any benchmark, or your own data. */
export const conversationsSourceSchema = z
  .object({
    format: z.literal("conversations"),
    /** The .jsonl or .jsonl.gz file, relative to the experiment file's folder. */
    path: z.string().min(1),
    /** Ask only the questions of these categories (default: every question). */
    categories: z.array(z.string().min(1)).min(1).optional(),
    /** Import each session's observations as semantic memories linked to their source turns. */
    observations: z.boolean().default(true),
  })
  .strict();

export const datasetSchema = z.union([z.object({ locomo: locomoSourceSchema }).strict(), conversationsSourceSchema]);
export type DatasetSpec = z.output<typeof datasetSchema>;

export const experimentSchema = z
  .object({
    name: nameSchema,
    description: z.string().min(1),
    /** Scenario files or globs, relative to the experiment file's folder. */
    scenarios: z.array(z.string().min(1)).default([]),
    /** A benchmark to import instead of (or beside) scenario files. */
    dataset: datasetSchema.optional(),
    /** Let scenario and dataset paths reach outside the experiment file's folder. */
    allowOutside: z.boolean().default(false),
    /**
     * The preset the ablations patch: a built-in one by name, or a policy preset file
     * (`recollect-policy/1`, as a sweep writes) relative to the experiment file's folder.
     */
    policy: z.union([z.enum(PRESET_NAMES), z.object({ file: z.string().min(1) }).strict()]).default("full"),
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
    /**
     * What the asks share, for the statistics: `scenario` (default: asks of one scenario or
     * conversation are correlated, so scenarios are the independent units), `ask` (asks are
     * independent of each other), or `none` (every (ask, seed) value is independent: only right
     * when each seed draws a new question). In every case but `none` the seeds of an ask are
     * averaged first.
     */
    cluster: z.enum(["scenario", "ask", "none"]).default("scenario"),
    /** The metrics the findings and main tables report; the appendix has every metric. */
    headline: z.array(z.string().min(1)).min(1).optional(),
    /** Policy parameters to sweep, choosing among them by cross-validation (see src/harness/sweep). */
    sweep: sweepSchema.optional(),
  })
  .strict()
  .refine((e) => e.scenarios.length > 0 || e.dataset !== undefined, {
    message: "an experiment needs scenarios or a dataset",
    path: ["scenarios"],
  })
  .superRefine((e, ctx) => {
    const known = metricNames(e.k);
    (e.headline ?? []).forEach((metric, i) => {
      if (!known.includes(metric)) {
        ctx.addIssue({ code: "custom", path: ["headline", i], message: `unknown metric "${metric}" for k ${e.k.join(", ")} (known: ${known.join(", ")})` });
      }
    });
    const objective = e.sweep?.objective.metric;
    if (objective !== undefined && !known.includes(objective)) {
      ctx.addIssue({ code: "custom", path: ["sweep", "objective", "metric"], message: `"${objective}" is not a metric for k ${e.k.join(", ")} (known: ${known.join(", ")})` });
    }
  });

/** The headline metrics of an experiment: as declared, or recall_any at the smallest k and coverage. */
export function headlineMetrics(spec: Pick<ExperimentSpec, "headline" | "k">): string[] {
  return spec.headline ?? [`recall_any@${Math.min(...spec.k)}`, "coverage"];
}
export type ExperimentSpec = z.output<typeof experimentSchema>;

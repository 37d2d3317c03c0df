import { z } from "zod";
import { PRESET_NAMES } from "../../memory/index.js";
import { metricNames } from "../metrics.js";
import { policyPatchSchema } from "../policy/schema.js";
import { variationSchema } from "../scenario/variation.js";
import { sweepSchema } from "./sweep-schema.js";
import { systemEntrySchema } from "../systems/spec.js";
import { DEFAULT_EMBEDDING_MODEL } from "../../model/embedding/registry.js";

/** The most seeds one experiment may list; README.md's "Bad input and limits" states it. */
export const MAX_SEEDS = 1_000;

/**
 * Experiment and ablation names: lower-case letters, digits and dashes. An experiment's name
 * becomes file names (results/<name>.json) and links in EVALUATION.md, so it must be a plain slug
 * that cannot climb out of a folder; results files are checked against the same rule when read.
 */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
export const NAME_RULE = "use lower-case letters, digits and dashes";
export const nameSchema = z.string().regex(NAME_PATTERN, NAME_RULE);

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

/** When a benchmark's questions are asked; see src/datasets/conversations/ask-time.ts. */
export const ASK_PROTOCOLS = ["end", "online", "immediate"] as const;
export type AskProtocol = (typeof ASK_PROTOCOLS)[number];

const protocolFields = {
  /**
   * When questions are asked, which decides what recency can do: `end` (default, after the last
   * session), `online` (at a seeded time between a question's newest evidence and the end) or
   * `immediate` (right after its newest evidence).
   */
  protocol: z.enum(ASK_PROTOCOLS).optional(),
  /** Several protocols: the experiment runs once per protocol, each run with results of its own. */
  protocols: z
    .array(z.enum(ASK_PROTOCOLS))
    .min(1)
    .refine((list) => new Set(list).size === list.length, "each protocol once")
    .optional(),
  /** Seeds the ask times of the online protocol. */
  askSeed: z.number().int().min(0).default(1),
};

const oneProtocolField = (dataset: { protocol?: unknown; protocols?: unknown }) =>
  dataset.protocol === undefined || dataset.protocols === undefined;
const ONE_PROTOCOL_FIELD = { message: "give protocol or protocols, not both", path: ["protocols"] };

const locomoSourceSchema = z
  .object({
    /** Question categories to ask (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial). */
    categories: z.array(z.number().int().min(1).max(5)).min(1).default([1, 2, 3, 4]),
    /** Import the dataset's observations as semantic memories linked to their turns. */
    observations: z.boolean().default(true),
    ...protocolFields,
  })
  .strict()
  .refine(oneProtocolField, ONE_PROTOCOL_FIELD);

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
    ...protocolFields,
  })
  .strict()
  .refine(oneProtocolField, ONE_PROTOCOL_FIELD);

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
    /** The ablation or system every other is compared with. */
    baseline: nameSchema.default("full"),
    ablations: z.array(z.union([nameSchema, customAblationSchema])).min(1),
    /**
     * Memory systems compared beside the ablations, under the same statistics: a built-in baseline
     * by name (recent-window, full-context), a module (`module:`) or a subprocess (`command:`).
     */
    systems: z.array(systemEntrySchema).default([]),
    /**
     * The Gemma-token budget every system is told at each retrieval (default: the policy's total
     * section quota, the budget recollect's sections share; null for none).
     */
    budget: z.number().int().positive().nullable().optional(),
    /**
     * The embedding model that policies ranking by embedding (or hybrid) use, unless a policy names
     * its own (`score.embeddingModel`): `use-lite` (in this process, offline), `ollama:<model>` or
     * `openai:<model>`, with the server's `url` for the last two.
     */
    embedding: z
      .object({
        model: z.string().min(1).default(DEFAULT_EMBEDDING_MODEL),
        url: z.string().min(1).optional(),
        /** Milliseconds one call to an embedding server may take. */
        timeoutMs: z.number().int().positive().optional(),
      })
      .strict()
      .default({ model: DEFAULT_EMBEDDING_MODEL }),
    seeds: z
      .array(z.number().int().min(0))
      .min(1)
      .max(MAX_SEEDS, `at most ${MAX_SEEDS} seeds; each seed reruns every scenario and ablation, so more than this is almost always a typo or a generated list`)
      .superRefine((seeds, ctx) => {
        // A repeated seed reruns byte-identical trials: it adds no information, yet the statistics
        // would count it as a second measurement and narrow the intervals.
        const seen = new Set<number>();
        seeds.forEach((seed, i) => {
          if (seen.has(seed)) ctx.addIssue({ code: "custom", path: [i], message: `duplicate seed ${seed}; list each seed once` });
          seen.add(seed);
        });
      }),
    variation: variationSchema.default({ jitter: 0, distractors: 0, shuffle: false, importanceNoise: 0, unratedImportanceNoise: 0 }),
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

/** One run of an experiment: the whole experiment, or one of its ask protocols. */
export interface ExperimentRun {
  /** The run's name: the experiment's, suffixed with the protocol when the file lists several. */
  name: string;
  protocol?: AskProtocol;
  askSeed: number;
}

/** The runs an experiment file asks for: one per protocol it lists, otherwise one. */
export function experimentRuns(spec: ExperimentSpec): ExperimentRun[] {
  const dataset = spec.dataset === undefined ? undefined : "locomo" in spec.dataset ? spec.dataset.locomo : spec.dataset;
  if (dataset === undefined) return [{ name: spec.name, askSeed: 1 }];
  if (dataset.protocols !== undefined) {
    return dataset.protocols.map((protocol) => ({ name: `${spec.name}-${protocol}`, protocol, askSeed: dataset.askSeed }));
  }
  return [{ name: spec.name, protocol: dataset.protocol ?? "end", askSeed: dataset.askSeed }];
}

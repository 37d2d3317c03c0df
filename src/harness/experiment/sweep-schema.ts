/**
 * The `sweep:` section of an experiment file: policy parameters and the values to try, the
 * objective that picks among them, and how the picking is cross-validated.
 */
import { z } from "zod";

/** A dotted path into a policy patch, e.g. `score.weights` or `sections.episodic.quota`. */
const parameterSchema = z.string().regex(/^[a-zA-Z]+(\.[a-zA-Z]+)*$/, "a dotted path into the policy, e.g. score.decayRate");

/** A value to try: anything a policy field holds; a duration string ("1h", "1d") where the field is a time. */
const valueSchema = z.union([z.number(), z.string(), z.boolean(), z.array(z.number()), z.null()]);

const randomSchema = z
  .object({
    points: z.number().int().min(1).max(10_000),
    seed: z.number().int().min(0),
    /** Per parameter, [low, high]: numbers, or arrays of numbers (each element drawn in its own range). */
    ranges: z.record(parameterSchema, z.tuple([valueSchema, valueSchema])),
  })
  .strict();

export const DEFAULT_FOLDS = 5;
/** Folds are dealt from this seed unless the sweep names one. */
export const DEFAULT_FOLD_SEED = 1;

export const sweepSchema = z
  .object({
    /** The cartesian product of the listed values, the first parameter varying slowest. */
    grid: z.record(parameterSchema, z.array(valueSchema).min(1)).optional(),
    /** Or points drawn uniformly from declared ranges. */
    random: randomSchema.optional(),
    /** score = metric − tokenPenalty × tokens, per ask; higher is better. */
    objective: z
      .object({
        metric: z.string().regex(/^(recall_any|recall_all|ndcg)@\d+$|^mrr$/, "a rank metric: recall_any@k, recall_all@k, ndcg@k or mrr"),
        tokenPenalty: z.number().finite().min(0).default(0),
      })
      .strict(),
    /** Cross-validation folds by cluster; leave-one-cluster-out when there are fewer clusters. */
    folds: z.number().int().min(2).default(DEFAULT_FOLDS),
    /** Seeds the dealing of clusters to folds. */
    foldSeed: z.number().int().min(0).default(DEFAULT_FOLD_SEED),
    /**
     * `off`: every point runs with touch off, so that one pass of each timeline serves every point.
     * Without it, a base policy that touches runs each point's full trials.
     */
    touch: z.literal("off").optional(),
  })
  .strict()
  .refine((s) => (s.grid === undefined) !== (s.random === undefined), { message: "give grid or random, not both or neither", path: ["grid"] });
export type SweepSpec = z.output<typeof sweepSchema>;
export type SweepValue = z.output<typeof valueSchema>;

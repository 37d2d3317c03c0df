import { z } from "zod";
import { retrievalPolicySchema } from "../../memory/index.js";
import { nameSchema } from "../experiment/schema.js";
import { systemInfoSchema } from "../systems/spec.js";
import { RESULTS_FORMAT } from "./types.js";

/** results/<experiment>.json as stored on disk; see types.ts for what each field means. */

const rank = z.number().int().positive().nullable();

const detailSchema = z.object({
  kept: z.array(z.string()),
  sectionTokens: z.record(z.string(), z.number()),
  gold: z.array(
    z.object({
      id: z.string(),
      section: z.string().nullable(),
      rel: z.number().optional(),
      rec: z.number().optional(),
      imp: z.number().optional(),
      total: z.number().optional(),
      weights: z.tuple([z.number(), z.number(), z.number()]).optional(),
      neighbours: z
        .array(z.object({ id: z.string(), rank: z.number().int().positive(), rel: z.number(), rec: z.number(), imp: z.number(), total: z.number() }))
        .optional(),
    }),
  ),
});

const askResultSchema = z.object({
  ask: z.string(),
  ranks: z.array(rank),
  coverage: z.number().nullable(),
  leaked: z.array(z.string()),
  tokens: z.number(),
  detail: detailSchema.optional(),
  returnedTokens: z.number().optional(),
});

const skippedSchema = z.object({ call: z.string(), message: z.string() });

/** Trials without detail are stored by column: one array per field, in the scenario's ask order. */
const columnarTrialSchema = z.object({
  scenario: z.string(),
  ablation: z.string(),
  seed: z.number(),
  columns: z.object({
    ranks: z.array(z.array(rank)),
    coverage: z.array(z.number().nullable()),
    tokens: z.array(z.number()),
    /** Only the asks that leaked, by ask id. */
    leaked: z.record(z.string(), z.array(z.string())),
    /** Tokens of what retrieval returned, per ask (see AskResult.returnedTokens). */
    returned: z.array(z.number()).optional(),
  }),
  skipped: skippedSchema.optional(),
});

export const rowTrialSchema = z.object({
  scenario: z.string(),
  ablation: z.string(),
  seed: z.number(),
  asks: z.array(askResultSchema),
  skipped: skippedSchema.optional(),
  latency: z.object({ write: z.array(z.number()), retrieve: z.array(z.number()) }).optional(),
});

const latencySummarySchema = z.object({ calls: z.number().int().min(0), p50: z.number(), p95: z.number() });

const askInfoSchema = z.object({
  id: z.string(),
  hour: z.number(),
  query: z.string(),
  expect: z.array(z.string()),
  required: z.array(z.string()),
  stale: z.array(z.string()),
  category: z.string().optional(),
  expectHours: z.array(z.number().nullable()).optional(),
});

export const storedResultsSchema = z.object({
  format: z.literal(RESULTS_FORMAT),
  experiment: z.object({
    // The name (and the family it was run from) becomes file names and EVALUATION.md links, so a
    // results file is held to the rule its experiment was loaded under: a hand-edited or foreign
    // file must not steer a link or a write outside results/ and reports/.
    name: nameSchema,
    family: nameSchema,
    protocol: z.enum(["end", "online", "immediate"]).optional(),
    file: z.string(),
    description: z.string(),
    baseline: z.string(),
    ablations: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        note: z.string().optional(),
        policy: retrievalPolicySchema.optional(),
        system: systemInfoSchema.optional(),
        budget: z.number().nullable().optional(),
      }),
    ),
    seeds: z.array(z.number()),
    k: z.array(z.number()),
    matchSource: z.boolean(),
    cluster: z.enum(["scenario", "ask", "none"]),
    headline: z.array(z.string()),
    importance: z.object({ rated: z.number(), unrated: z.number(), noise: z.number(), unratedNoise: z.number() }),
    scenarios: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        targets: z.array(z.object({ ablation: z.string(), metric: z.string() })),
        asks: z.array(askInfoSchema),
      }),
    ),
    importStats: z.record(z.string(), z.unknown()).optional(),
  }),
  manifest: z.object({
    gitCommit: z.string(),
    gitDirty: z.boolean(),
    node: z.string(),
    packages: z.record(z.string(), z.string()),
    tokenizerSha256: z.string(),
    datasets: z.array(z.object({ name: z.string(), sha256: z.string(), note: z.string().optional(), path: z.string().optional() })),
    experimentHash: z.string(),
    wallTimeMs: z.number(),
    ablationWallTimeMs: z.number().optional(),
    sweepWallTimeMs: z.number().optional(),
    shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1), codeVersion: z.string().optional() }).optional(),
  }),
  trials: z.array(z.union([rowTrialSchema, columnarTrialSchema])),
  sweep: z
    .object({
      parameters: z.array(z.string()),
      objective: z.object({ metric: z.string(), tokenPenalty: z.number() }),
      evaluation: z.enum(["one-pass", "full-trials"]),
      touchOff: z.boolean(),
      foldSeed: z.number(),
      base: retrievalPolicySchema,
      points: z.array(
        z.object({
          id: z.string(),
          values: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.array(z.number()), z.null()])),
          label: z.string(),
        }),
      ),
      values: z.record(z.string(), z.array(z.number())),
      selection: z.object({
        folds: z.array(z.object({ heldOut: z.array(z.string()), chosen: z.string(), training: z.number(), heldOutScore: z.number(), items: z.number() })),
        chosen: z.string(),
        chosenScore: z.number(),
      }),
    })
    .optional(),
  timing: z.record(z.string(), z.object({ write: latencySummarySchema, retrieve: latencySummarySchema })).optional(),
});

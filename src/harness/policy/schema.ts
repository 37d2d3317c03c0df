import { z } from "zod";
import { retrievalPolicySchema, scoreConfigSchema, sectionRuleSchema } from "../../memory/index.js";

/**
 * A patch of the retrieval policy: any subset of it, every key checked, so a misspelt setting in
 * an experiment file is an error rather than silently ignored. Arrays (weights) replace whole.
 */
const sectionPatch = sectionRuleSchema.partial().strict();

export const policySchema = retrievalPolicySchema;

export const policyPatchSchema = z
  .object({
    mode: z.enum(["per-kind", "pooled"]),
    score: scoreConfigSchema.partial().strict(),
    sections: z
      .object({ working: sectionPatch, semantic: sectionPatch, episodic: sectionPatch, procedural: sectionPatch })
      .partial()
      .strict(),
    pooled: sectionPatch,
    touch: z.boolean(),
    writeBack: z.boolean(),
  })
  .partial()
  .strict();
export type PolicyPatch = z.output<typeof policyPatchSchema>;

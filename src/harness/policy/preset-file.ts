/**
 * A retrieval policy preset on disk: one JSON file holding a whole RetrievalPolicy with a name and
 * a description, so a policy found by hand or by a sweep can be reused by `npm run chat --policy`
 * and by experiments. The format:
 *
 *     { "format": "recollect-policy/1", "name": "…", "description": "…", "policy": { …RetrievalPolicy } }
 *
 * The policy is checked by the same schema as the experiments' policies; a file that is not a
 * preset is refused with one message naming the file and the path inside it.
 */
import { z } from "zod";
import type { RetrievalPolicy } from "../../memory/index.js";
import { SIZE_LIMITS } from "../../shared/read-file.js";
import { readJsonFile } from "../../shared/read-json.js";
import { schemaCheck } from "../files/load-yaml.js";
import { policySchema } from "./schema.js";

export const POLICY_PRESET_FORMAT = "recollect-policy/1";

const presetSchema = z.strictObject({
  format: z.literal(POLICY_PRESET_FORMAT),
  name: z.string().min(1),
  description: z.string(),
  policy: policySchema,
});

export interface PolicyPreset {
  format: typeof POLICY_PRESET_FORMAT;
  name: string;
  description: string;
  policy: RetrievalPolicy;
}

export function readPolicyPreset(file: string): PolicyPreset {
  return readJsonFile(file, schemaCheck(presetSchema), {
    maxBytes: SIZE_LIMITS.policy,
    what: "policy preset file",
    hint: `a policy preset is a JSON file of format ${POLICY_PRESET_FORMAT}`,
  }) as PolicyPreset;
}

/** The file's text: two-space JSON ending in a newline, keys in the order of the format above. */
export function serialisePolicyPreset(preset: Omit<PolicyPreset, "format">): string {
  const checked = presetSchema.parse({ format: POLICY_PRESET_FORMAT, ...preset });
  return `${JSON.stringify({ format: checked.format, name: checked.name, description: checked.description, policy: checked.policy }, null, 2)}\n`;
}

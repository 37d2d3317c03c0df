import { z } from "zod";
import { experimentSchema } from "./experiment/schema.js";
import { scenarioSchema } from "./scenario/schema.js";

/**
 * JSON Schemas of the two file formats, for editors (YAML language servers read them). They are
 * derived from the zod schemas the loader validates with, so the two cannot drift apart.
 */
export function fileSchemas(): Record<string, object> {
  const render = (schema: z.ZodType, title: string) => ({
    title,
    ...z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }),
  });
  return {
    "schemas/experiment.schema.json": render(experimentSchema, "recollect experiment file"),
    "schemas/scenario.schema.json": render(scenarioSchema, "recollect scenario file"),
  };
}

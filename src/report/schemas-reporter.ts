import { conversationJsonSchema } from "../datasets/conversations/index.js";
import { fileSchemas } from "../harness/json-schema.js";
import type { Reporter } from "./reporter.js";

/** The JSON Schemas of experiment, scenario and conversation files, regenerated and checked like any report. */
export const schemasReporter: Reporter = {
  name: "schemas",
  async render() {
    const schemas = { ...fileSchemas(), "schemas/conversation.schema.json": conversationJsonSchema() };
    return Object.entries(schemas).map(([path, schema]) => ({ path, content: `${JSON.stringify(schema, null, 2)}\n` }));
  },
};

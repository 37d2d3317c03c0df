import { conversationJsonSchema } from "../datasets/conversations/index.js";
import { fileSchemas } from "../harness/json-schema.js";
import { protocolJsonSchemas } from "../harness/systems/index.js";
import type { Reporter } from "./reporter.js";

/** Where the subprocess protocol's message schemas live, one file per message. */
export const PROTOCOL_SCHEMAS_DIR = "schemas/system-protocol";

/**
 * The JSON Schemas of experiment, scenario and conversation files, and of every message of the
 * subprocess protocol, regenerated and checked like any report.
 */
export const schemasReporter: Reporter = {
  name: "schemas",
  async render() {
    const protocol = Object.fromEntries(Object.entries(protocolJsonSchemas()).map(([file, schema]) => [`${PROTOCOL_SCHEMAS_DIR}/${file}`, schema]));
    const schemas = { ...fileSchemas(), "schemas/conversation.schema.json": conversationJsonSchema(), ...protocol };
    return Object.entries(schemas).map(([path, schema]) => ({ path, content: `${JSON.stringify(schema, null, 2)}\n` }));
  },
};

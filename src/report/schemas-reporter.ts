import { fileSchemas } from "../harness/json-schema.js";
import type { Reporter } from "./reporter.js";

/** The JSON Schemas of experiment and scenario files, regenerated and checked like any report. */
export const schemasReporter: Reporter = {
  name: "schemas",
  async render() {
    return Object.entries(fileSchemas()).map(([path, schema]) => ({ path, content: `${JSON.stringify(schema, null, 2)}\n` }));
  },
};

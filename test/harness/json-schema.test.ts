import { describe, expect, it } from "vitest";
import { fileSchemas } from "../../src/harness/json-schema.js";

describe("fileSchemas", () => {
  const schemas = fileSchemas() as Record<string, { title: string; type: string; required?: string[]; properties: Record<string, unknown>; additionalProperties?: unknown }>;

  it("describes both file formats for editors, by their place in schemas/", () => {
    expect(Object.keys(schemas)).toEqual(["schemas/experiment.schema.json", "schemas/scenario.schema.json"]);
    expect(schemas["schemas/experiment.schema.json"].title).toBe("recollect experiment file");
    expect(schemas["schemas/scenario.schema.json"].title).toBe("recollect scenario file");
  });

  it("follows the loader's schemas: the same required keys, and no unknown keys allowed", () => {
    const experiment = schemas["schemas/experiment.schema.json"];
    expect(experiment.type).toBe("object");
    expect(experiment.required).toEqual(expect.arrayContaining(["name", "description", "ablations", "seeds"]));
    expect(experiment.additionalProperties).toBe(false);
    const scenario = schemas["schemas/scenario.schema.json"];
    expect(scenario.required).toEqual(expect.arrayContaining(["name", "description", "steps"]));
    expect(Object.keys(scenario.properties)).toEqual(expect.arrayContaining(["pool", "steps", "start", "scope"]));
  });
});

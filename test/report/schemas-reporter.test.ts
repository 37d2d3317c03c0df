import { describe, expect, it } from "vitest";
import { schemasReporter } from "../../src/report/schemas-reporter.js";
import type { ReportContext } from "../../src/report/reporter.js";

describe("schemasReporter", () => {
  it("writes the JSON Schemas of experiment, scenario and conversation files into schemas/", async () => {
    const files = await schemasReporter.render({} as ReportContext);
    expect(files.map((f) => f.path).slice(0, 3)).toEqual(["schemas/experiment.schema.json", "schemas/scenario.schema.json", "schemas/conversation.schema.json"]);
    for (const file of files) {
      expect(String(file.content).endsWith("}\n")).toBe(true);
      expect(JSON.parse(String(file.content)).title).toMatch(/^recollect/);
    }
  });

  it("publishes a schema for every message of the subprocess protocol: each request, its result, and the error reply", async () => {
    const files = await schemasReporter.render({} as ReportContext);
    const protocol = files.map((f) => f.path).filter((p) => p.startsWith("schemas/system-protocol/"));
    const methods = ["initialize", "open", "write", "retrieve", "close", "shutdown"];
    expect(protocol).toEqual([...methods.flatMap((m) => [`schemas/system-protocol/${m}.request.schema.json`, `schemas/system-protocol/${m}.result.schema.json`]), "schemas/system-protocol/error.schema.json"]);
    const retrieve = JSON.parse(String(files.find((f) => f.path.endsWith("retrieve.result.schema.json"))!.content));
    expect(retrieve.properties.result.required).toEqual(["ids"]);
    expect(retrieve.properties.result.additionalProperties).toBe(false);
  });
});

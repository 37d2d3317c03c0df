import { describe, expect, it } from "vitest";
import { schemasReporter } from "../../src/report/schemas-reporter.js";
import type { ReportContext } from "../../src/report/reporter.js";

describe("schemasReporter", () => {
  it("writes the JSON Schemas of experiment, scenario and conversation files into schemas/", async () => {
    const files = await schemasReporter.render({} as ReportContext);
    expect(files.map((f) => f.path)).toEqual(["schemas/experiment.schema.json", "schemas/scenario.schema.json", "schemas/conversation.schema.json"]);
    for (const file of files) {
      expect(String(file.content).endsWith("}\n")).toBe(true);
      expect(JSON.parse(String(file.content)).title).toMatch(/^recollect /);
    }
  });
});

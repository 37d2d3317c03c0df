import { describe, expect, it } from "vitest";
import type { ReportContext } from "../../../src/report/reporter.js";
import { chartsReporter } from "../../../src/report/charts/reporter.js";
import { handMadeResults, handMadeSummary } from "./hand-made-results.js";

function context(): ReportContext {
  const results = handMadeResults();
  return { results: [results], summaries: [handMadeSummary(results)], findings: [], readExisting: () => undefined };
}

describe("chartsReporter", () => {
  /** The hand-made experiment's files, rendered once for the tests that read them. */
  let files: ReturnType<typeof chartsReporter.render> | undefined;
  const rendered = () => (files ??= chartsReporter.render(context()));

  it("is registered as \"charts\"", () => {
    expect(chartsReporter.name).toBe("charts");
  });

  it("returns an SVG and a PNG per chart under reports/charts/<experiment>/", async () => {
    const files = await rendered();
    expect(files.map((f) => f.path)).toEqual(
      ["forest", "metrics", "recall-at-k", "categories", "evidence-age", "cost", "rank-change", "breakdown"].flatMap((chart) => [
        `reports/charts/timeline-demo/${chart}.svg`,
        `reports/charts/timeline-demo/${chart}.png`,
      ]),
    );
    for (const file of files) {
      if (file.path.endsWith(".svg")) expect(typeof file.content).toBe("string");
      else expect(Buffer.isBuffer(file.content)).toBe(true);
    }
  });

  it("gives byte-identical files on a second run", async () => {
    const first = await rendered();
    const second = await chartsReporter.render(context());
    expect(second.map((f) => f.path)).toEqual(first.map((f) => f.path));
    for (const [i, file] of first.entries()) {
      expect(Buffer.from(second[i]!.content).equals(Buffer.from(file.content)), file.path).toBe(true);
    }
  });

  it("returns nothing when there are no experiments", async () => {
    expect(await chartsReporter.render({ results: [], summaries: [], findings: [], readExisting: () => undefined })).toEqual([]);
  });
});

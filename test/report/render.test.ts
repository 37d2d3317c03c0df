import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../src/harness/results/types.js";
import { renderReports } from "../../src/report/render.js";
import { handMadeResults } from "./charts/hand-made-results.js";

function named(name: string): ExperimentResults {
  const results = handMadeResults();
  results.experiment.name = name;
  return results;
}

describe("renderReports", () => {
  it("renders every experiment's charts and the shared files, one step per experiment's statistics and per reporter", async () => {
    const steps: string[] = [];
    const rendered = await renderReports([named("beta"), named("alpha")], "/nonexistent", {
      onStep: (done, total, step) => steps.push(`${done}/${total} ${step}`),
    });
    expect(steps).toEqual([
      "0/9 statistics alpha",
      "1/9 statistics beta",
      "2/9 charts",
      "3/9 appendix",
      "4/9 preset",
      "5/9 evaluation",
      "6/9 failure-analysis",
      "7/9 html",
      "8/9 schemas",
      "9/9 done",
    ]);
    const paths = rendered.files.map((f) => f.path);
    expect(paths).toContain("reports/charts/alpha/metrics.png");
    expect(paths).toContain("reports/charts/beta/metrics.png");
    expect(paths).toContain("EVALUATION.md");
    expect(paths).toContain("reports/alpha.md");
    expect(paths).toContain("reports/index.html");
    expect(rendered.owned).toEqual(["reports/charts"]);
  });

  it("renders only the named experiment's own files when the shared ones are not wanted", async () => {
    const steps: string[] = [];
    const rendered = await renderReports([named("beta"), named("alpha")], "/nonexistent", {
      experiments: ["beta"],
      shared: false,
      onStep: (_, total, step) => steps.push(`${step} of ${total}`),
    });
    expect(steps).toEqual(["statistics beta of 4", "charts of 4", "appendix of 4", "preset of 4", "done of 4"]);
    expect(rendered.files.every((f) => f.path.startsWith("reports/charts/beta/") || f.path === "reports/beta.md")).toBe(true);
    expect(rendered.owned).toEqual(["reports/charts/beta"]);
  });
});

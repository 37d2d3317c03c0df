import { describe, expect, it } from "vitest";
import { brokenChartLinks } from "../../src/report/chart-links.js";
import type { RenderedReports } from "../../src/report/render.js";
import { useTempDir } from "../harness/temp-files.js";

const rendered = (files: Record<string, string>): RenderedReports => ({
  files: Object.entries(files).map(([path, content]) => ({ path, content })),
  owned: ["reports/charts"],
});

describe("brokenChartLinks", () => {
  const root = useTempDir("recollect-links-");
  root.write("README.md", "![metrics](reports/charts/core/metrics.png)\n\n[old chart](./reports/charts/core/old.png)\n");
  root.write("reports/core.md", "![rank](charts/core/rank-change.png) and [a page](https://example.org/x.png)\n");
  root.write("reports/charts/core/old.png", "an orphan on disk does not count as existing");
  root.write("EVALUATION.md", "![gone](reports/charts/core/gone.png)\n");

  it("names each link from a markdown file to a chart that the render does not produce", () => {
    const problems = brokenChartLinks(
      rendered({
        "reports/charts/core/metrics.png": "png",
        "EVALUATION.md": "![m](reports/charts/core/metrics.png)\n\n![b](reports/charts/locomo/breakdown.png)\n",
      }),
      root.dir,
    );
    expect(problems).toEqual([
      "EVALUATION.md links to reports/charts/locomo/breakdown.png, a chart that the current results do not produce",
      "README.md links to reports/charts/core/old.png, a chart that the current results do not produce",
      "reports/core.md links to reports/charts/core/rank-change.png, a chart that the current results do not produce",
    ]);
  });

  it("reads a generated markdown file as rendered now, not as it is on disk", () => {
    const problems = brokenChartLinks(rendered({ "EVALUATION.md": "no charts", "reports/charts/core/metrics.png": "" }), root.dir);
    expect(problems.some((p) => p.includes("gone.png"))).toBe(false);
  });

  it("ignores links in code and links that leave the repository", () => {
    const problems = brokenChartLinks(
      rendered({
        "EVALUATION.md": "`![x](reports/charts/a/x.png)`\n\n    ![y](reports/charts/a/y.png)\n\n[z](https://host/reports/charts/a/z.png) [t](#reports)\n",
        "reports/charts/core/old.png": "",
        "reports/charts/core/rank-change.png": "",
        "reports/charts/core/metrics.png": "",
      }),
      root.dir,
    );
    expect(problems).toEqual([]);
  });
});

import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../src/harness/results/types.js";
import { describeWrite, orphanReports, renderReports, staleReports, writeReports } from "../../src/report/render.js";
import { useTempDir } from "../harness/temp-files.js";
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
      "0/7 statistics alpha",
      "1/7 statistics beta",
      "2/7 charts",
      "3/7 evaluation",
      "4/7 failure-analysis",
      "5/7 html",
      "6/7 schemas",
      "7/7 done",
    ]);
    const paths = rendered.files.map((f) => f.path);
    expect(paths).toContain("reports/charts/alpha/metrics.png");
    expect(paths).toContain("reports/charts/beta/metrics.png");
    expect(paths).toContain("EVALUATION.md");
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
    expect(steps).toEqual(["statistics beta of 2", "charts of 2", "done of 2"]);
    expect(rendered.files.every((f) => f.path.startsWith("reports/charts/beta/"))).toBe(true);
    expect(rendered.owned).toEqual(["reports/charts/beta"]);
  });
});

describe("writeReports", () => {
  it("writes what changed, removes charts the results no longer produce, and leaves other files alone", async () => {
    const root = useTempDir("recollect-render-");
    const orphan = root.write("reports/charts/alpha/recall-over-time-old.png", "stale");
    const gone = root.write("reports/charts/removed-experiment/metrics.svg", "<svg/>");
    const unrelated = root.write("reports/notes.txt", "mine");
    const rendered = await renderReports([named("alpha")], root.dir);

    expect(orphanReports(rendered, root.dir)).toEqual([
      "reports/charts/alpha/recall-over-time-old.png",
      "reports/charts/removed-experiment/metrics.svg",
    ]);
    const outcome = writeReports(rendered, root.dir);
    expect(outcome.removed).toHaveLength(2);
    expect(outcome.written).toEqual(rendered.files.map((f) => f.path));
    expect(existsSync(orphan) || existsSync(gone)).toBe(false);
    expect(readFileSync(unrelated, "utf8")).toBe("mine");
    expect(describeWrite(outcome)).toMatch(/^reports: wrote .*; removed reports\/charts\/alpha\/recall-over-time-old\.png, /);

    expect(staleReports(rendered, root.dir)).toEqual([]);
    expect(orphanReports(rendered, root.dir)).toEqual([]);
    expect(describeWrite(writeReports(rendered, root.dir))).toBe("reports: up to date");
  });

  it("in a render scoped to one experiment, treats only that experiment's chart folder as its own", async () => {
    const root = useTempDir("recollect-render-");
    root.write("reports/charts/alpha/old.png", "stale");
    const other = root.write("reports/charts/beta/old.png", "another experiment's");
    const rendered = await renderReports([named("alpha"), named("beta")], root.dir, { experiments: ["alpha"], shared: false });
    expect(orphanReports(rendered, root.dir)).toEqual(["reports/charts/alpha/old.png"]);
    writeReports(rendered, root.dir);
    expect(readFileSync(other, "utf8")).toBe("another experiment's");
  });
});

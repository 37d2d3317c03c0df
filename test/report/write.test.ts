import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../src/harness/results/types.js";
import { renderReports } from "../../src/report/render.js";
import { describeWrite, orphanReports, staleReports, writeReports } from "../../src/report/write.js";
import { useTempDir } from "../harness/temp-files.js";
import { handMadeResults } from "./charts/hand-made-results.js";

function named(name: string): ExperimentResults {
  const results = handMadeResults();
  results.experiment.name = name;
  return results;
}

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

import { existsSync } from "node:fs";
import { join } from "node:path";
import { readResults } from "../../harness/results/io.js";
import { CHART_CACHE_DIR, ChartCache } from "../../report/charts/chart-cache.js";
import { EVALUATION_PATH, HTML_REPORT_PATH } from "../../report/paths.js";
import type { RenderedReports } from "../../report/reporter.js";
import type { Progress } from "../progress.js";
import { type Output, recordedResultFiles, resultsFile } from "./pipeline.js";

export interface ReportScope {
  /** Render only these experiments' own files (default: every experiment's). */
  experiments?: string[];
  /** Render the files that cover every experiment (default: true). */
  shared?: boolean;
}

/** Whether the files that cover every experiment are on disk; a scoped run renders them when one is missing. */
export function sharedReportsExist(root: string): boolean {
  return [EVALUATION_PATH, HTML_REPORT_PATH].every((path) => existsSync(join(root, path)));
}

/**
 * Renders the reports of an output folder from every results file recorded there, as a phase of
 * its own on `bar`: one step per experiment's statistics and per reporter.
 */
export async function renderRecordedReports(bar: Progress, output: Output, scope: ReportScope = {}): Promise<RenderedReports> {
  bar.phase(output.project ? "reports" : `reports in ${output.dir}`, undefined, "steps", "reading results");
  // Without the shared files, only the named experiments' results are needed.
  const files =
    scope.shared === false && scope.experiments ? scope.experiments.map((name) => resultsFile(name, output.dir)) : recordedResultFiles(output.dir);
  const recorded = files.map((file) => readResults(file)!);
  // Loaded here rather than with the command: Vega and the fonts take seconds to load on a busy machine.
  const { renderReports } = await import("../../report/render.js");
  return renderReports(recorded, output.dir, {
    ...scope,
    project: output.project,
    chartCache: new ChartCache(join(output.dir, CHART_CACHE_DIR)),
    onStep: (done, total, step) => bar.update(done, step, total),
  });
}

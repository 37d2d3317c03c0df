import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExperimentResults } from "../harness/results/types.js";
import { costRows } from "../harness/summary/cost.js";
import { DEFAULT_SUMMARY_SEED } from "../harness/summary/summarise.js";
import { summariseAll } from "../harness/summary/summarise-all.js";
import { byCodeUnit } from "../shared/order.js";
import type { ChartCache } from "./charts/chart-cache.js";
import { chartsReporter } from "./charts/reporter.js";
import { createEvaluationReporter } from "./evaluation.js";
import { appendixReporter } from "./appendix.js";
import { failureAnalysisReporter } from "./failure-analysis.js";
import { htmlReporter } from "./html/reporter.js";
import { answersSection } from "./markdown/answers.js";
import { experimentFindings } from "./markdown/findings.js";
import { importSection } from "./markdown/import-table.js";
import { locomoSection } from "./markdown/locomo.js";
import { sweepFinding } from "./markdown/sweep.js";
import { presetReporter } from "./preset-reporter.js";
import type { OutputFile, RenderedReports, ReportContext, Reporter } from "./reporter.js";
import { schemasReporter } from "./schemas-reporter.js";

export type { RenderedReports } from "./reporter.js";

/** The statistics' seed: reports are a pure function of the results. */
const STATISTICS_SEED = DEFAULT_SUMMARY_SEED;

/**
 * Every reporter, listed where the report is built, as vitest lists its reporters. `experiment`
 * reporters write files of one experiment each (its charts, its appendix), so a run of one
 * experiment can regenerate them alone; `shared` reporters write files that cover every experiment.
 * A user's output folder (`project: false`) gets no answer-level section, FAILURE_ANALYSIS.md or
 * JSON Schemas: those are the project's.
 */
export function reporters(options: { project?: boolean } = {}): { experiment: Reporter[]; shared: Reporter[] } {
  const experimentSections = [importSection, locomoSection];
  if (options.project === false) {
    return {
      experiment: [chartsReporter, appendixReporter, presetReporter],
      shared: [createEvaluationReporter({ experimentSections, sections: [] }), htmlReporter],
    };
  }
  return {
    experiment: [chartsReporter, appendixReporter, presetReporter],
    shared: [
      createEvaluationReporter({ experimentSections, sections: [answersSection] }),
      failureAnalysisReporter,
      htmlReporter,
      schemasReporter,
    ],
  };
}

export interface RenderOptions {
  /** Render the per-experiment files of these experiments only (default: every experiment). */
  experiments?: readonly string[];
  /** Render the files that cover every experiment: EVALUATION.md, the HTML report, … (default: true). */
  shared?: boolean;
  /** Called before each step (one experiment's statistics, or one reporter) and once at the end. */
  onStep?: (done: number, total: number, step: string) => void;
  /** The project's own folder (default); false for a user's output folder (see `reporters`). */
  project?: boolean;
  /** Charts rendered before, read instead of rendered again (see ChartCache); none by default. */
  chartCache?: ChartCache;
}

/** Every report file, rendered in memory from recorded results; paths are relative to `root`. */
export async function renderReports(
  results: ExperimentResults[],
  root: string,
  options: RenderOptions = {},
): Promise<RenderedReports> {
  const sorted = [...results].sort((a, b) => byCodeUnit(a.experiment.name, b.experiment.name));
  const shared = options.shared ?? true;
  const scoped = options.experiments === undefined ? sorted : sorted.filter((r) => options.experiments!.includes(r.experiment.name));
  // Shared files cover every experiment, so they need every experiment's statistics.
  const needed = shared ? sorted : scoped;
  const list = reporters({ project: options.project });
  const reportersToRun = [...list.experiment, ...(shared ? list.shared : [])];
  const total = needed.length + reportersToRun.length;
  let done = 0;
  const step = (name: string) => options.onStep?.(done++, total, name);

  const summaries = await summariseAll(needed, { seed: STATISTICS_SEED }, { onStart: (name) => step(`statistics ${name}`) });
  const readExisting = (path: string) => {
    const file = join(root, path);
    return existsSync(file) ? readFileSync(file, "utf8") : undefined;
  };
  const findings = needed.map((r, i) => {
    // An experiment that sweeps is there for its sweep: its finding is the held-out choice.
    const sweep = sweepFinding(r, summaries[i]);
    return sweep === undefined ? experimentFindings(summaries[i], r, costRows(r, summaries[i].headline[0])) : { experiment: r.experiment.name, sentences: sweep };
  });
  const contextOf = (chosen: ExperimentResults[]): ReportContext => ({
    results: chosen,
    summaries: chosen.map((r) => summaries[needed.indexOf(r)]!),
    findings: chosen.map((r) => findings[needed.indexOf(r)]!),
    readExisting,
    project: options.project ?? true,
    ...(options.chartCache === undefined ? {} : { chartCache: options.chartCache }),
  });

  const files: OutputFile[] = [];
  for (const reporter of list.experiment) {
    step(reporter.name);
    files.push(...(await reporter.render(contextOf(scoped))));
  }
  if (shared) {
    for (const reporter of list.shared) {
      step(reporter.name);
      files.push(...(await reporter.render(contextOf(sorted))));
    }
  }
  options.onStep?.(done, total, "done");

  const owned = list.experiment.flatMap((reporter) => {
    if (reporter.owns === undefined) return [];
    // A whole render owns the reporter's entire folder, so the folder of an experiment that has
    // no results any more is cleared too; a scoped one owns only its experiments' folders.
    return options.experiments === undefined ? [reporter.owns()] : scoped.map((r) => reporter.owns!(r.experiment.name));
  });
  return { files, owned };
}

import { checkAnswers } from "../../harness/answers/replay-check.js";
import { compareResults } from "../../harness/results/compare.js";
import { readResults, writeResults } from "../../harness/results/io.js";
import { plural, RecollectError } from "../../shared/errors.js";
import { brokenChartLinks } from "../../report/chart-links.js";
import { oversizedCharts } from "../../report/charts/size-limit.js";
import { describeWrite, orphanReports, staleReports, writeReports } from "../../report/write.js";
import type { CheckArgs, Log } from "../app.js";
import type { Progress } from "../progress.js";
import { headlineShifts, type MetricShift, policyChanges, renderReview } from "../../harness/results/review.js";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";
import { EXPERIMENTS_DIR, loadRuns, type Output, outputFor, recordedResultFiles, resultsFile, runExperiment, warnOnStderr } from "./pipeline.js";
import { renderRecordedReports } from "./reports.js";

const MAX_LINES = 40;

/**
 * Re-runs every experiment offline and compares it with its recorded results, then re-renders the
 * reports of each output folder and compares them with the files on disk. Returns the problems
 * found (empty: all is current).
 */
export async function checkCommand(args: CheckArgs, bar: Progress, warn: Log = warnOnStderr): Promise<CheckOutcome> {
  const log = (line: string) => bar.log(line);
  const problems: string[] = [];
  const review: string[] = [];
  const changed: { experiment: string; shifts: MetricShift[]; policies: string[]; differences: string[] }[] = [];
  const explicit = args.files.length > 0;
  const outputs = new Map<string, Output>();
  if (!explicit) {
    const whole = outputFor(`${EXPERIMENTS_DIR}/any.yaml`, args.out);
    outputs.set(whole.dir, whole);
  }
  const experiments = await loadRuns(args, warn);
  // A damaged recorded file is named before any experiment runs (--update re-records it instead).
  if (!args.update) {
    for (const dir of new Set([...experiments.map((e) => e.output.dir), ...outputs.keys()])) {
      for (const file of recordedResultFiles(dir)) readResults(file);
    }
  }
  for (const { file, loaded, output } of experiments) {
    outputs.set(output.dir, output);
    if ("skipped" in loaded) {
      log(`check: SKIPPED ${file}: ${loaded.skipped}`);
      continue;
    }
    const name = loaded.spec.name;
    const recordedFile = resultsFile(name, output.dir);
    const fresh = await runExperiment(
      loaded,
      { workers: args.workers, skipOnSystemError: args.onSystemError === "skip", ...(args.embeddingCache === undefined ? {} : { embeddingCache: args.embeddingCache }) },
      bar,
    );
    const recorded = readRecorded(recordedFile, args.update, log);
    const differences = recorded ? compareResults(recorded, fresh) : [`${name}: no recorded results at ${recordedFile}`];
    if (recorded && differences.length > 0) {
      const shifts = headlineShifts(recorded, fresh);
      const policies = policyChanges(recorded, fresh);
      review.push(...renderReview(name, shifts, policies));
      changed.push({ experiment: name, shifts, policies, differences });
    }
    if (differences.length > 0 && args.update) {
      writeResults(recordedFile, fresh);
      log(`${name}: re-recorded ${recordedFile}`);
    } else {
      problems.push(...differences);
      log(`${name}: ${differences.length === 0 ? "matches the recorded results" : plural(differences.length, "difference")}`);
    }
  }
  for (const output of outputs.values()) {
    if (output.project) {
      // The answer-level run replays recorded model calls; with no recordings there is nothing to check.
      bar.phase("answers", undefined, "", "replaying the recorded answers");
      const answers = await checkAnswers({ root: output.dir });
      problems.push(...answers);
      log(answers.length === 0 ? "answers: the recorded answers replay (or none are recorded)" : `answers: ${plural(answers.length, "difference")}`);
    }
    const rendered = await renderRecordedReports(bar, output);
    const where = output.project ? "" : `${output.dir}/`;
    if (args.update) {
      const line = describeWrite(writeReports(rendered, output.dir));
      log(output.project ? line : line.replace(/^reports:/, `reports in ${output.dir}:`));
    } else {
      const regenerate = "regenerate it with `npm run experiment` or `npm run check -- --update`";
      problems.push(...staleReports(rendered, output.dir).map((path) => `${where}${path} is stale: ${regenerate}`));
      problems.push(
        ...orphanReports(rendered, output.dir).map(
          (path) => `${where}${path} is an orphan: no current result produces it; remove it with \`npm run check -- --update\``,
        ),
      );
    }
    problems.push(...brokenChartLinks(rendered, output.dir).map((problem) => `${where}${problem}`));
    problems.push(...oversizedCharts(rendered.files).map((problem) => `${where}${problem}`));
  }
  if (args.json !== undefined) {
    writeFileAtomicSync(args.json, `${JSON.stringify({ passed: problems.length === 0, experiments: changed, problems }, null, 2)}\n`);
  }
  return { review, problems };
}

/**
 * What a check found: the review of each experiment whose results changed (its headline metrics
 * before and after, and its policy changes), read first, and every problem, per trial, after it.
 */
export interface CheckOutcome {
  review: string[];
  problems: string[];
}

/** The recorded results; with --update, an unreadable recording is replaced rather than fatal. */
function readRecorded(file: string, update: boolean, log: Log) {
  try {
    return readResults(file);
  } catch (error) {
    if (!(update && error instanceof RecollectError)) throw error;
    log(`${error.message}: re-recording it`);
    return undefined;
  }
}

export function printProblems(problems: string[], log: Log): void {
  for (const line of problems.slice(0, MAX_LINES)) log(`  ${line}`);
  if (problems.length > MAX_LINES) log(`  … and ${problems.length - MAX_LINES} more`);
}

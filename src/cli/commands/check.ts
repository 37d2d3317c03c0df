import { checkAnswers } from "../../harness/answers/replay-check.js";
import { compareResults } from "../../harness/results/compare.js";
import { readResults, writeResults } from "../../harness/results/io.js";
import { plural, UserError } from "../../shared/errors.js";
import { brokenChartLinks } from "../../report/chart-links.js";
import { describeWrite, orphanReports, staleReports, writeReports } from "../../report/write.js";
import type { CheckArgs } from "../app.js";
import type { Progress } from "../progress.js";
import type { Log } from "./experiment.js";
import { experimentFiles, loadOrSkip, recordedResultFiles, resultsFile, runExperiment } from "./pipeline.js";
import { renderRecordedReports } from "./reports.js";

const MAX_LINES = 40;

/**
 * Re-runs every experiment offline and compares it with results/, then re-renders the reports and
 * compares them with the files on disk. Returns the problems found (empty: all is current).
 */
export async function checkCommand(args: CheckArgs, bar: Progress, root = process.cwd()): Promise<string[]> {
  const log = (line: string) => bar.log(line);
  const problems: string[] = [];
  const explicit = args.files.length > 0;
  const experiments = experimentFiles(args.files).map((file) => ({ file, loaded: loadOrSkip(file, args, explicit) }));
  // A damaged recorded file is named before any experiment runs (--update re-records it instead).
  if (!args.update) for (const file of recordedResultFiles()) readResults(file);
  for (const { file, loaded } of experiments) {
    if ("skipped" in loaded) {
      log(`check: SKIPPED ${file}: ${loaded.skipped}`);
      continue;
    }
    const name = loaded.spec.name;
    const fresh = await runExperiment(loaded, { workers: args.workers }, bar);
    const recorded = readRecorded(resultsFile(name), args.update, log);
    const differences = recorded
      ? compareResults(recorded, fresh)
      : [`${name}: no recorded results at ${resultsFile(name)}`];
    if (differences.length > 0 && args.update) {
      writeResults(resultsFile(name), fresh);
      log(`${name}: re-recorded ${resultsFile(name)}`);
    } else {
      problems.push(...differences);
      log(`${name}: ${differences.length === 0 ? "matches the recorded results" : plural(differences.length, "difference")}`);
    }
  }
  // The answer-level run replays recorded model calls; with no recordings there is nothing to check.
  bar.phase("answers", undefined, "", "replaying the recorded answers");
  const answers = await checkAnswers({ root });
  problems.push(...answers);
  log(answers.length === 0 ? "answers: the recorded answers replay (or none are recorded)" : `answers: ${plural(answers.length, "difference")}`);

  const rendered = await renderRecordedReports(bar, root);
  if (args.update) {
    log(describeWrite(writeReports(rendered, root)));
  } else {
    const regenerate = "regenerate it with `npm run experiment` or `npm run check -- --update`";
    problems.push(...staleReports(rendered, root).map((path) => `${path} is stale: ${regenerate}`));
    problems.push(
      ...orphanReports(rendered, root).map(
        (path) => `${path} is an orphan: no current result produces it; remove it with \`npm run check -- --update\``,
      ),
    );
  }
  problems.push(...brokenChartLinks(rendered, root));
  return problems;
}

/** The recorded results; with --update, an unreadable recording is replaced rather than fatal. */
function readRecorded(file: string, update: boolean, log: Log) {
  try {
    return readResults(file);
  } catch (error) {
    if (!(update && error instanceof UserError)) throw error;
    log(`${error.message}: re-recording it`);
    return undefined;
  }
}

export function printProblems(problems: string[], log: Log): void {
  for (const line of problems.slice(0, MAX_LINES)) log(`  ${line}`);
  if (problems.length > MAX_LINES) log(`  … and ${problems.length - MAX_LINES} more`);
}

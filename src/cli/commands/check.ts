import { checkAnswers } from "../../harness/answers/replay-check.js";
import { compareResults } from "../../harness/results/compare.js";
import { readResults, writeResults } from "../../harness/results/io.js";
import { plural } from "../../shared/errors.js";
import type { CheckArgs } from "../app.js";
import type { Log } from "./experiment.js";
import { experimentFiles, loadOrSkip, recordedResultFiles, resultsFile, runExperiment } from "./pipeline.js";

const MAX_LINES = 40;

/**
 * Re-runs every experiment offline and compares it with results/, then re-renders the reports and
 * compares them with the files on disk. Returns the problems found (empty: all is current).
 */
export async function checkCommand(args: CheckArgs, log: Log, root = process.cwd()): Promise<string[]> {
  const problems: string[] = [];
  const explicit = args.files.length > 0;
  const experiments = experimentFiles(args.files).map((file) => ({ file, loaded: loadOrSkip(file, args, explicit) }));
  // A damaged recorded file is named before any experiment runs.
  for (const file of recordedResultFiles()) readResults(file);
  for (const { file, loaded } of experiments) {
    if ("skipped" in loaded) {
      log(`check: SKIPPED ${file}: ${loaded.skipped}`);
      continue;
    }
    const name = loaded.spec.name;
    const fresh = await runExperiment(loaded, { workers: args.workers });
    const recorded = readResults(resultsFile(name));
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
  const answers = await checkAnswers({ root });
  problems.push(...answers);
  log(answers.length === 0 ? "answers: the recorded answers replay (or none are recorded)" : `answers: ${plural(answers.length, "difference")}`);

  const recorded = recordedResultFiles().map((f) => readResults(f)!);
  // Loaded here, not at the top: the charts' renderers are large, and a bad file needs none of them.
  const { renderReports, staleReports, writeReports } = await import("../../report/render.js");
  const files = await renderReports(recorded, root);
  if (args.update) {
    const written = writeReports(files, root);
    if (written.length > 0) log(`reports: wrote ${written.join(", ")}`);
  } else {
    const stale = staleReports(files, root);
    problems.push(...stale.map((path) => `${path} is stale: regenerate it with \`npm run experiment\` or \`npm run check -- --update\``));
  }
  return problems;
}

export function printProblems(problems: string[], log: Log): void {
  for (const line of problems.slice(0, MAX_LINES)) log(`  ${line}`);
  if (problems.length > MAX_LINES) log(`  … and ${problems.length - MAX_LINES} more`);
}

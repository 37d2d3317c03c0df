import { checkAnswers } from "../../harness/answers/index.js";
import { compareResults } from "../../harness/results/compare.js";
import { readResults, writeResults } from "../../harness/results/io.js";
import { renderReports, staleReports, writeReports } from "../../report/render.js";
import type { CheckArgs } from "../app.js";
import type { Log } from "./experiment.js";
import { EXPERIMENTS_DIR, experimentFiles, loadOrSkip, type Output, outputFor, recordedResultFiles, resultsFile, runExperiment } from "./pipeline.js";

const MAX_LINES = 40;

/**
 * Re-runs every experiment offline and compares it with its recorded results, then re-renders
 * the reports of each output folder and compares them with the files on disk. Returns the
 * problems found (empty: all is current).
 */
export async function checkCommand(args: CheckArgs, log: Log): Promise<string[]> {
  const problems: string[] = [];
  const explicit = args.files.length > 0;
  const outputs = new Map<string, Output>();
  if (!explicit) {
    const whole = outputFor(`${EXPERIMENTS_DIR}/any.yaml`, args.out);
    outputs.set(whole.dir, whole);
  }
  const experiments = [];
  for (const file of experimentFiles(args.files)) {
    experiments.push({ file, loaded: await loadOrSkip(file, args, explicit), output: outputFor(file, args.out) });
  }
  for (const { file, loaded, output } of experiments) {
    outputs.set(output.dir, output);
    if ("skipped" in loaded) {
      log(`check: SKIPPED ${file}: ${loaded.skipped}`);
      continue;
    }
    const name = loaded.spec.name;
    const recordedFile = resultsFile(name, output.dir);
    const fresh = await runExperiment(loaded, { workers: args.workers });
    const recorded = readResults(recordedFile);
    const differences = recorded ? compareResults(recorded, fresh) : [`${name}: no recorded results at ${recordedFile}`];
    if (differences.length > 0 && args.update) {
      writeResults(recordedFile, fresh);
      log(`${name}: re-recorded ${recordedFile}`);
    } else {
      problems.push(...differences);
      log(`${name}: ${differences.length === 0 ? "matches the recorded results" : `${differences.length} difference(s)`}`);
    }
  }
  for (const output of outputs.values()) {
    if (output.project) {
      // The answer-level run replays recorded model calls; with no recordings there is nothing to check.
      const answers = await checkAnswers({ root: output.dir });
      problems.push(...answers);
      log(answers.length === 0 ? "answers: the recorded answers replay (or none are recorded)" : `answers: ${answers.length} difference(s)`);
    }
    const recorded = recordedResultFiles(output.dir).map((f) => readResults(f)!);
    const files = await renderReports(recorded, output.dir, { project: output.project });
    if (args.update) {
      const written = writeReports(files, output.dir);
      if (written.length > 0) log(`reports: wrote ${written.join(", ")}`);
    } else {
      const stale = staleReports(files, output.dir);
      const where = output.project ? "" : `${output.dir}/`;
      problems.push(...stale.map((path) => `${where}${path} is stale: regenerate it with \`npm run experiment\` or \`npm run check -- --update\``));
    }
  }
  return problems;
}

export function printProblems(problems: string[], log: Log): void {
  for (const line of problems.slice(0, MAX_LINES)) log(`  ${line}`);
  if (problems.length > MAX_LINES) log(`  … and ${problems.length - MAX_LINES} more`);
}

import { checkAnswers } from "../../harness/answers/replay-check.js";
import { compareResults } from "../../harness/results/compare.js";
import { readResults, writeResults } from "../../harness/results/io.js";
import { TrialPool } from "../../harness/runner/pool.js";
import { datasetSample, type RunSample } from "../../harness/runner/sample.js";
import { plural, RecollectError, UsageError } from "../../shared/errors.js";
import { brokenChartLinks } from "../../report/chart-links.js";
import { oversizedCharts } from "../../report/charts/size-limit.js";
import { describeWrite, orphanReports, staleReports, writeReports } from "../../report/write.js";
import type { CheckArgs, Log } from "../app.js";
import type { Progress } from "../progress.js";
import { formatDelta, formatShift, headlineShifts, type MetricShift, policyChanges, renderReview, toleranceVerdict, withinTolerance } from "../../harness/results/review.js";
import { type JunitCase, type JunitSuite, renderJunit } from "../../harness/results/junit.js";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";
import { EXPERIMENTS_DIR, loadRuns, type Output, outputFor, recordedResultFiles, resultsFile, runExperiment, warnOnStderr } from "./pipeline.js";
import { renderRecordedReports } from "./reports.js";

const MAX_LINES = 40;

/**
 * Re-runs every experiment offline and compares it with its recorded results, then re-renders the
 * reports of each output folder and compares them with the files on disk. Returns the problems
 * found (empty: all is current), and with --tolerance the differences it tolerated. With --json
 * and --junit it also writes what it found for CI systems.
 */
export async function checkCommand(args: CheckArgs, bar: Progress, warn: Log = warnOnStderr): Promise<CheckOutcome> {
  const log = (line: string) => bar.log(line);
  // A sample's results are partly the recording: re-recorded, they would pass off old figures as
  // fresh; and a tolerance would weigh each shift over asks most of which are copies, shrinking it.
  for (const [flag, given] of [["--update", args.update], ["--tolerance", args.tolerance !== undefined]] as const) {
    if (args.sample !== undefined && given) throw new UsageError(`--sample cannot be given with ${flag}: a sampled check's results are partly the recorded ones`, { flag: "--sample" });
  }
  const problems: string[] = [];
  const tolerated: string[] = [];
  const review: string[] = [];
  const checked: Checked[] = [];
  /** Problems that belong to no experiment, by what they are about (JUnit gives each a suite). */
  const others: { answers: string[]; reports: string[] } = { answers: [], reports: [] };
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
  // One set of worker threads for every experiment, rather than one started for each.
  const pool = new TrialPool(args.workers);
  try {
    for (const { file, loaded, output } of experiments) {
      outputs.set(output.dir, output);
      if ("skipped" in loaded) {
        log(`check: SKIPPED ${file}: ${loaded.skipped}`);
        checked.push({ experiment: file, skipped: loaded.skipped, shifts: [], policies: [], differences: [] });
        continue;
      }
      const name = loaded.spec.name;
      const recordedFile = resultsFile(name, output.dir);
      const recorded = readRecorded(recordedFile, args.update, log);
      const choice = args.sample === undefined ? undefined : datasetSample(loaded, recorded, args.sample);
      const sample = choice === undefined || "whyNot" in choice ? undefined : choice;
      const fresh = await runExperiment(
        loaded,
        {
          workers: args.workers,
          pool,
          skipOnSystemError: args.onSystemError === "skip",
          ...(args.embeddingCache === undefined ? {} : { embeddingCache: args.embeddingCache }),
          ...(sample === undefined ? {} : { sample }),
        },
        bar,
      );
      if (sample !== undefined) log(`${name}: ${describeSample(sample.conversations)}; the others' trials are the recorded ones`);
      else if (choice !== undefined && "whyNot" in choice) log(`${name}: re-ran every conversation, not a sample: ${choice.whyNot}`);
      const differences = recorded ? compareResults(recorded, fresh) : [`${name}: no recorded results at ${recordedFile}`];
      const entry: Checked = { experiment: name, shifts: [], policies: [], differences, ...(sample === undefined ? {} : { sample: sample.conversations }) };
      checked.push(entry);
      // An unchanged experiment's shifts are all zero; JUnit still lists them, as passing cases.
      if (recorded && (differences.length > 0 || args.junit !== undefined)) entry.shifts = headlineShifts(recorded, fresh);
      if (recorded && differences.length > 0) {
        entry.policies = policyChanges(recorded, fresh);
        review.push(...renderReview(name, entry.shifts, entry.policies, args.tolerance));
        if (args.tolerance !== undefined) entry.verdict = toleranceVerdict(recorded, fresh, entry.shifts, args.tolerance);
      }
      if (differences.length > 0 && args.update) {
        entry.rerecorded = true;
        writeResults(recordedFile, fresh);
        log(`${name}: re-recorded ${recordedFile}`);
      } else if (entry.verdict?.tolerated) {
        tolerated.push(...differences);
        log(`${name}: ${plural(differences.length, "difference")}, every headline shift within ±${args.tolerance}`);
      } else {
        problems.push(...differences);
        const why = entry.verdict && !entry.verdict.tolerated ? `; not within the tolerance: ${entry.verdict.why}` : "";
        log(`${name}: ${differences.length === 0 ? "matches the recorded results" : plural(differences.length, "difference")}${why}`);
      }
    }
  } finally {
    await pool.close();
  }
  for (const output of outputs.values()) {
    if (output.project) {
      // The answer-level run replays recorded model calls; with no recordings there is nothing to check.
      bar.phase("answers", undefined, "", "replaying the recorded answers");
      const answers = await checkAnswers({ root: output.dir });
      problems.push(...answers);
      others.answers.push(...answers);
      log(answers.length === 0 ? "answers: the recorded answers replay (or none are recorded)" : `answers: ${plural(answers.length, "difference")}`);
    }
    const rendered = await renderRecordedReports(bar, output);
    const where = output.project ? "" : `${output.dir}/`;
    const reports: string[] = [];
    if (args.update) {
      const line = describeWrite(writeReports(rendered, output.dir));
      log(output.project ? line : line.replace(/^reports:/, `reports in ${output.dir}:`));
    } else {
      const regenerate = "regenerate it with `npm run experiment` or `npm run check -- --update`";
      reports.push(...staleReports(rendered, output.dir).map((path) => `${where}${path} is stale: ${regenerate}`));
      reports.push(
        ...orphanReports(rendered, output.dir).map(
          (path) => `${where}${path} is an orphan: no current result produces it; remove it with \`npm run check -- --update\``,
        ),
      );
    }
    reports.push(...brokenChartLinks(rendered, output.dir).map((problem) => `${where}${problem}`));
    reports.push(...oversizedCharts(rendered.files).map((problem) => `${where}${problem}`));
    problems.push(...reports);
    others.reports.push(...reports);
  }
  const passed = problems.length === 0;
  if (args.json !== undefined) {
    const experiments = checked
      .filter((c) => c.skipped === undefined && c.differences.length > 0)
      .map(({ experiment, shifts, policies, differences, verdict }) => ({
        experiment,
        shifts: args.tolerance === undefined ? shifts : shifts.map((s) => ({ ...s, withinTolerance: withinTolerance(s, args.tolerance!) })),
        policies,
        differences,
        ...(verdict === undefined ? {} : { withinTolerance: verdict.tolerated, ...(verdict.tolerated ? {} : { why: verdict.why }) }),
      }));
    // Which conversations a sampled check re-ran, per experiment: its pass vouches for those alone.
    const sampled = Object.fromEntries(checked.flatMap((c) => (c.sample === undefined ? [] : [[c.experiment, c.sample.sampled]])));
    const report = { passed, tolerance: args.tolerance ?? null, sampled, experiments, problems, tolerated };
    writeFileAtomicSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  }
  if (args.junit !== undefined) writeFileAtomicSync(args.junit, renderJunit("recollect check", junitSuites(checked, others, args.tolerance)));
  return { review, problems, tolerated };
}

/** One experiment as the check saw it: skipped, or run and compared with its recording. */
interface Checked {
  /** The experiment's name, or its file when it was skipped before its name was known. */
  experiment: string;
  skipped?: string;
  shifts: MetricShift[];
  policies: string[];
  differences: string[];
  /** With --tolerance, and only for a changed experiment: whether its differences are tolerated. */
  verdict?: ReturnType<typeof toleranceVerdict>;
  /** With --update: its differences were recorded, so they fail nothing. */
  rerecorded?: boolean;
  /** With --sample: the conversations re-run (the others' trials were the recorded ones). */
  sample?: RunSample["conversations"];
}

/** "re-ran 3 of 10 conversations (a, b, c)". */
function describeSample({ sampled, of }: RunSample["conversations"]): string {
  return `re-ran ${sampled.length} of ${of} conversations (${sampled.join(", ")})`;
}

/**
 * The check as JUnit: a suite per experiment with a case per headline metric of each ablation (it
 * fails when the metric moved, or with --tolerance when its interval leaves ±tolerance) and one for
 * the per-trial comparison; then a suite each for the replayed answers and the reports.
 */
function junitSuites(checked: readonly Checked[], others: { answers: string[]; reports: string[] }, tolerance: number | undefined): JunitSuite[] {
  const suites = checked.map(({ experiment, skipped, shifts, differences, verdict, rerecorded, sample }): JunitSuite => {
    const sampleLine = sample === undefined ? undefined : describeSample(sample);
    if (skipped !== undefined) return { name: experiment, cases: [{ classname: experiment, name: "run", skipped }] };
    const metricCases = shifts.map((s): JunitCase => {
      const line = `${s.ablation} ${s.metric}: ${formatShift(s)}; the interval is 95%, per comparison`;
      const failed = !rerecorded && (tolerance === undefined ? s.changed > 0 : !withinTolerance(s, tolerance));
      const bound = tolerance === undefined ? "" : failed ? `, outside ±${tolerance}` : `, within ±${tolerance}`;
      const c = { classname: experiment, name: `${s.ablation} · ${s.metric}` };
      return failed ? { ...c, failure: { message: `${formatDelta(s)}${bound}`, type: "headline-shift", text: line } } : { ...c, output: `${line}${bound}` };
    });
    const trials: JunitCase = { classname: experiment, name: "per-trial results match the recording", ...(sampleLine === undefined ? {} : { output: sampleLine }) };
    if (differences.length > 0) {
      const text = [...(sampleLine === undefined ? [] : [sampleLine]), ...differences].join("\n");
      if (rerecorded) trials.output = `re-recorded (--update)\n${text}`;
      else if (verdict?.tolerated) trials.output = `tolerated: every headline shift within ±${tolerance}\n${text}`;
      else trials.failure = { message: `${plural(differences.length, "difference")}${verdict && !verdict.tolerated ? `; not within the tolerance: ${verdict.why}` : ""}`, type: "results-differ", text };
    }
    return { name: experiment, cases: [...metricCases, trials] };
  });
  const problemSuite = (name: string, passing: string, problems: readonly string[]): JunitSuite => ({
    name,
    cases:
      problems.length === 0
        ? [{ classname: name, name: passing }]
        : problems.map((problem) => ({ classname: name, name: problem, failure: { message: problem, type: name, text: problem } })),
  });
  return [
    ...suites,
    problemSuite("answers", "the recorded answers replay", others.answers),
    problemSuite("reports", "the reports match the recorded results", others.reports),
  ];
}

/**
 * What a check found: the review of each experiment whose results changed (its headline metrics
 * before and after, and its policy changes), read first, and every problem, per trial, after it.
 */
export interface CheckOutcome {
  review: string[];
  problems: string[];
  /** With --tolerance: the differences of experiments whose every headline shift stayed within it. */
  tolerated: string[];
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

import { plural } from "../shared/errors.js";
import type { CliIo, Handlers } from "./app.js";
import { EXIT_CODES } from "./exit-codes.js";
import { againCommand, onInterrupt, SavedWork } from "./interrupt.js";
import { type Progress, progress } from "./progress.js";

/** What the commands of one run read and write, and how a command sets the run's exit code. */
export interface CommandIo extends Omit<CliIo, "cwd"> {
  /** The arguments the run was given, the command first: Ctrl-C names the command that resumes it. */
  argv: readonly string[];
  /** The run ends with this exit code once the command returns (check: its differences). */
  exitWith(code: number): void;
}

/*
 * Each command loads its modules when it runs, not when the CLI starts: the report code alone
 * pulls in Vega, and loading every command's dependencies kept even `--help` silent for seconds.
 */
export function handlersFor(io: CommandIo): Handlers {
  const log = (line: string) => io.stdout.write(`${line}\n`);
  const warn = async () => (await import("./commands/pipeline.js")).warnOn(io.stderr);

  /**
   * Runs a long command with its progress. The progress writes nothing until the command starts its
   * first phase, after its input files are validated, so a bad file still gets one line alone.
   * Ctrl-C says what the command saved (it tells `saved` as it goes) and how to go on.
   */
  async function withProgress<T>(run: (bar: Progress, saved: SavedWork) => Promise<T>): Promise<T> {
    const bar = progress({ log, stream: io.stderr });
    const saved = new SavedWork(againCommand(io.argv, io.env.npm_lifecycle_event));
    const release = onInterrupt(
      () => saved.message(),
      () => bar.stop(),
    );
    try {
      return await run(bar, saved);
    } finally {
      release();
      bar.stop();
    }
  }

  return {
    experiment: (args) =>
      withProgress(async (bar, saved) => (await import("./commands/experiment.js")).experimentCommand(args, bar, saved, await warn())),
    async check(args) {
      const { review, problems, tolerated } = await withProgress(async (bar) => (await import("./commands/check.js")).checkCommand(args, bar, await warn()));
      const { printProblems } = await import("./commands/check.js");
      // The review comes first, as a reviewer reads a change: the headline metrics, then the details.
      for (const line of review) log(line);
      if (problems.length === 0 && tolerated.length > 0) {
        log(`check: PASSED within the tolerance: every headline shift's 95% interval lies within ±${args.tolerance}; ${plural(tolerated.length, "difference")} tolerated:`);
        printProblems(tolerated, log);
        return;
      }
      if (problems.length === 0) {
        log("check: everything matches the recorded results");
        return;
      }
      log(`check: FAILED with ${plural(problems.length, "difference")}:`);
      printProblems(problems, log);
      io.exitWith(EXIT_CODES.checkFailed);
    },
    merge: async (args) => (await import("./commands/merge.js")).mergeCommand(args, log),
    async demo() {
      io.stdout.write(await (await import("./commands/demo.js")).runDemo());
    },
    chat: async (args) => (await import("./commands/chat.js")).chatCommand(args, { print: log, env: io.env, ...(io.stdin === undefined ? {} : { input: io.stdin }) }),
    record: (args) => withProgress(async (bar) => (await import("./commands/record.js")).recordCommand(args, bar, { env: io.env })),
    bench: async (args) => (await import("./commands/bench.js")).benchCommand(args, log),
    convert: async (args) => (await import("./commands/convert.js")).convertCommand(args, log),
  };
}

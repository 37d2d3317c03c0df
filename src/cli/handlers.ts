import { plural } from "../shared/errors.js";
import type { Handlers } from "./app.js";
import { EXIT_CODES } from "./exit-codes.js";
import { againCommand, onInterrupt, SavedWork } from "./interrupt.js";
import { type Progress, progress } from "./progress.js";

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Runs a long command with its progress. The progress writes nothing until the command starts its
 * first phase, after its input files are validated, so a bad file still gets one line alone.
 * Ctrl-C says what the command saved (it tells `saved` as it goes) and how to go on.
 */
async function withProgress<T>(run: (bar: Progress, saved: SavedWork) => Promise<T>): Promise<T> {
  const bar = progress({ log });
  const saved = new SavedWork(againCommand(process.argv.slice(2), process.env.npm_lifecycle_event));
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

/*
 * Each command loads its modules when it runs, not when the CLI starts: the report code alone
 * pulls in Vega, and loading every command's dependencies kept even `--help` silent for seconds.
 */
export const handlers: Handlers = {
  experiment: (args) => withProgress(async (bar, saved) => (await import("./commands/experiment.js")).experimentCommand(args, bar, saved)),
  async check(args) {
    const { review, problems, tolerated } = await withProgress(async (bar) => (await import("./commands/check.js")).checkCommand(args, bar));
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
    process.exitCode = EXIT_CODES.checkFailed;
  },
  merge: async (args) => (await import("./commands/merge.js")).mergeCommand(args, log),
  async demo() {
    process.stdout.write(await (await import("./commands/demo.js")).runDemo());
  },
  chat: async (args) => (await import("./commands/chat.js")).chatCommand(args),
  record: (args) => withProgress(async (bar) => (await import("./commands/record.js")).recordCommand(args, bar)),
  bench: async (args) => (await import("./commands/bench.js")).benchCommand(args, log),
  convert: async (args) => (await import("./commands/convert.js")).convertCommand(args, log),
};

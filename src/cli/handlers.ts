import { plural } from "../shared/errors.js";
import type { Handlers } from "./app.js";

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Each command's module is loaded when the command runs, so `--help` and a mistyped flag answer
 * at once instead of after loading the charts, the tokenizer and SQLite.
 */
export const handlers: Handlers = {
  experiment: async (args) => (await import("./commands/experiment.js")).experimentCommand(args, log),
  async check(args) {
    const { checkCommand, printProblems } = await import("./commands/check.js");
    const problems = await checkCommand(args, log);
    if (problems.length === 0) {
      log("check: everything matches the recorded results");
      return;
    }
    log(`check: FAILED with ${plural(problems.length, "difference")}:`);
    printProblems(problems, log);
    process.exitCode = 1;
  },
  merge: async (args) => (await import("./commands/merge.js")).mergeCommand(args, log),
  async demo() {
    process.stdout.write(await (await import("./commands/demo.js")).runDemo());
  },
  chat: async (args) => (await import("./commands/chat.js")).chatCommand(args),
  record: async (args) => (await import("./commands/record.js")).recordCommand(args, log),
  bench: async (args) => (await import("./commands/bench.js")).benchCommand(args, log),
};

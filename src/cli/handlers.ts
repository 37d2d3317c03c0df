import type { Handlers } from "./app.js";
import { chatCommand } from "./commands/chat.js";
import { benchCommand } from "./commands/bench.js";
import { checkCommand, printProblems } from "./commands/check.js";
import { convertCommand } from "./commands/convert.js";
import { runDemo } from "./commands/demo.js";
import { experimentCommand } from "./commands/experiment.js";
import { mergeCommand } from "./commands/merge.js";
import { recordCommand } from "./commands/record.js";

const log = (line: string) => process.stdout.write(`${line}\n`);

export const handlers: Handlers = {
  experiment: (args) => experimentCommand(args, log),
  async check(args) {
    const problems = await checkCommand(args, log);
    if (problems.length === 0) {
      log("check: everything matches the recorded results");
      return;
    }
    log(`check: FAILED with ${problems.length} difference(s):`);
    printProblems(problems, log);
    process.exitCode = 1;
  },
  merge: (args) => mergeCommand(args, log),
  async demo() {
    process.stdout.write(await runDemo());
  },
  chat: (args) => chatCommand(args),
  record: (args) => recordCommand(args, log),
  bench: (args) => benchCommand(args, log),
  convert: (args) => convertCommand(args, log),
};

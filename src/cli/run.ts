import { resolve } from "node:path";
import { UsageError } from "../shared/errors.js";
import { buildCli, type CliIo } from "./app.js";
import { exitCodeOf } from "./exit-codes.js";
import { handlersFor } from "./handlers.js";

/**
 * One run of the command line, as the binary (main.ts) runs it and as a test runs it in its own
 * process: it returns the exit code. A user error prints one line and gets the code exit-codes.ts
 * gives it; a failed check exits 1; anything else is a bug, thrown to reach Node with its stack trace.
 * Nothing of the run stays in the process: no listener, no exit code, no working folder.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let code = 0;
  const handlers = handlersFor({ ...io, argv, exitWith: (exit) => (code = exit) });
  const write = (text: string) => io.stdout.write(text);
  try {
    await inFolder(io.cwd, () =>
      buildCli([...argv], handlers, io.env, write)
        // The run ends by returning its code, never by ending the process under a caller.
        .exitProcess(false)
        .fail((message, error) => {
          // yargs lays some usage messages out on several lines; the CLI's contract is one.
          throw error ?? new UsageError(message.replace(/\s*\n\s*/g, " "));
        })
        // With a callback, yargs hands over what it would print (--help, --version) rather than print it.
        .parseAsync([...argv], {}, (_error, _argv, output) => {
          if (output !== "") write(`${output}\n`);
        }),
    );
  } catch (thrown) {
    // yargs reports a rejected argument (e.g. from an option's coerce) as a YError.
    const error = thrown instanceof Error && thrown.name === "YError" ? new UsageError(thrown.message, { cause: thrown }) : thrown;
    const refused = exitCodeOf(error);
    if (refused === undefined) throw error;
    io.stderr.write(`recollect: ${(error as Error).message}\n`);
    return refused;
  }
  return code;
}

/**
 * Runs `run` with `cwd` as the process's working folder. The library reads the paths a user gives
 * through node:fs, which resolves them against the process's folder. The binary runs where it
 * stands and never moves; a test's run moves there and back whatever happens, so runs in different
 * folders must not overlap.
 */
async function inFolder<T>(cwd: string, run: () => Promise<T>): Promise<T> {
  const home = process.cwd();
  if (resolve(cwd) === home) return run();
  process.chdir(cwd);
  try {
    return await run();
  } finally {
    process.chdir(home);
  }
}

import { UsageError } from "../shared/errors.js";
import { buildCli } from "./app.js";
import { exitCodeOf } from "./exit-codes.js";
import { handlers } from "./handlers.js";

/** User errors print one line and exit with the code exit-codes.ts gives them; anything else is a bug. */
try {
  await buildCli(process.argv.slice(2), handlers)
    .fail((message, error) => {
      // yargs lays some usage messages out on several lines; the CLI's contract is one.
      throw error ?? new UsageError(message.replace(/\s*\n\s*/g, " "));
    })
    .parseAsync();
} catch (thrown) {
  // yargs reports a rejected argument (e.g. from an option's coerce) as a YError.
  const error = thrown instanceof Error && thrown.name === "YError" ? new UsageError(thrown.message, { cause: thrown }) : thrown;
  const code = exitCodeOf(error);
  if (code === undefined) throw error;
  process.stderr.write(`recollect: ${(error as Error).message}\n`);
  process.exitCode = code;
}

import { isRecollectError, userError } from "../shared/errors.js";
import { buildCli } from "./app.js";
import { handlers } from "./handlers.js";

/** User errors print one line and exit 2; a failed check sets exit code 1; anything else is a bug. */
try {
  await buildCli(process.argv.slice(2), handlers)
    .fail((message, error) => {
      // yargs lays some usage messages out on several lines; the CLI's contract is one.
      throw error ?? userError(message.replace(/\s*\n\s*/g, " "));
    })
    .parseAsync();
} catch (error) {
  // yargs reports a rejected argument (e.g. from an option's coerce) as a YError.
  const usage = error instanceof Error && error.name === "YError";
  if (!isRecollectError(error) && !usage) throw error;
  process.stderr.write(`recollect: ${userError((error as Error).message).message}\n`);
  process.exitCode = 2;
}

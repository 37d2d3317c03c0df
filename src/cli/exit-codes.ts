/**
 * The one place that decides the process's exit code. The library's errors say what went wrong
 * (their kinds are in shared/errors.ts and model/errors.ts); what the process reports for each is
 * the command line's business, so no exit code lives below this folder.
 */
import { RecollectError } from "../shared/errors.js";

export const EXIT_CODES = {
  /** `check` found results that differ from the recorded ones: CI must fail, but nothing was refused. */
  checkFailed: 1,
  /** The input was refused (a file, a flag, a dataset, a model server): a user can fix it, and the one-line message says how. */
  refused: 2,
} as const;

/**
 * The exit code of an error that stopped a command, or undefined for a bug, which must reach Node
 * with its stack trace. Every kind of RecollectError is an input a user can fix, so all of them
 * share one code; a kind that ever needs its own is added here and nowhere else.
 */
export function exitCodeOf(error: unknown): number | undefined {
  return error instanceof RecollectError ? EXIT_CODES.refused : undefined;
}

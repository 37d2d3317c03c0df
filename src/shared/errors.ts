/**
 * Errors a user can cause (a bad file, a missing dataset, a model server that is down) are
 * `UserError`s: the CLI prints their message alone and exits 2. Anything else is a bug and keeps
 * its stack trace. All user-facing messages are built here, so their wording stays consistent.
 */
export class UserError extends Error {
  readonly exitCode = 2;
  constructor(
    message: string,
    /** The file (or host, or dataset) the message is about, for callers that want it. */
    readonly subject?: string,
  ) {
    super(message);
    this.name = "UserError";
  }
}

export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}

/** `file: what is wrong` — the shape of every message about a file. */
export function fileError(file: string, problem: string): UserError {
  return new UserError(`${file}: ${problem}`, file);
}

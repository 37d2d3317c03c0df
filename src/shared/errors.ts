/**
 * Errors a user can cause (a bad file, a bad flag, a missing dataset, a model server that is down)
 * are `RecollectError`s, and their kind says what the problem is about: a `FileError` names its
 * file, a `UsageError` the flag, a `ModelError` (model/errors.ts) its server. Each keeps the error
 * it was made from as its `cause`, so nothing a caller may need to diagnose it is lost. What the
 * CLI does with each kind (the exit code) is decided in the CLI alone (cli/exit-codes.ts); anything
 * that is not a RecollectError is a bug and keeps its stack trace.
 *
 * The shapes of user-facing messages are built here, so their wording stays consistent; the model
 * layer's messages (model/errors.ts) and the LoCoMo importer's (datasets/locomo/messages.ts) are
 * built on them.
 */

/** An input problem a user can fix; its message is one line that says what is wrong. */
export class RecollectError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(oneLine(message), options);
    this.name = "RecollectError";
  }
}

/** A problem with one file: `file: what is wrong`. */
export class FileError extends RecollectError {
  constructor(
    /** The file as the message names it; a line number or a part of it may follow (`a.jsonl:3`). */
    readonly file: string,
    problem: string,
    options?: ErrorOptions,
  ) {
    super(`${file}: ${problem}`, options);
    this.name = "FileError";
  }
}

/** A command-line mistake: a flag's value, or arguments that do not go together. */
export class UsageError extends RecollectError {
  /** The flag the message is about, when it is about one. */
  readonly flag: string | undefined;

  constructor(message: string, options?: ErrorOptions & { flag?: string }) {
    super(message, options);
    this.name = "UsageError";
    this.flag = options?.flag;
  }
}

export function isRecollectError(error: unknown): error is RecollectError {
  return error instanceof RecollectError;
}

/** A problem that concerns no one file: a bad combination of settings, a usage mistake. */
export function userError(message: string, options?: ErrorOptions): RecollectError {
  return new RecollectError(message, options);
}

/** `file: what is wrong` — the shape of every message about a file. */
export function fileError(file: string, problem: string, options?: ErrorOptions): FileError {
  return new FileError(file, problem, options);
}

/** `--flag expects …, got "value"` — the shape of every message about a command-line value. */
export function flagError(flag: string, expected: string, got: unknown): UsageError {
  return new UsageError(`${flag} expects ${expected}, got "${String(got)}"`, { flag });
}

/** A file that exists but cannot be read, named with what the system said, in words. */
export function unreadableFile(file: string, error: unknown): FileError {
  return fileError(file, `cannot be read (${errnoWords(error)})`, { cause: error });
}

/** A file that cannot be written where the user asked for it; undefined for an error that is not the system's. */
export function unwritableFile(file: string, error: unknown): FileError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== "string" || !/^E[A-Z]+$/.test(code)) return undefined;
  return fileError(file, `cannot be written (${errnoWords(error)})`, { cause: error });
}

function errnoWords(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ? (ERRNO_WORDS[code] ?? code) : String((error as Error | undefined)?.message ?? error);
}

const ERRNO_WORDS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the path is too long",
  ENOTDIR: "a part of the path is not a directory",
  EEXIST: "a part of the path is a file, not a directory",
  ENOSPC: "no space left on the device",
  EROFS: "the file system is read-only",
  EDQUOT: "the disk quota is used up",
  EIO: "input/output error",
};

/** Sizes in messages: "8 MiB", "512 KiB", "17 bytes". */
export function formatBytes(bytes: number): string {
  const units = [
    [1024 ** 3, "GiB"],
    [1024 ** 2, "MiB"],
    [1024, "KiB"],
  ] as const;
  for (const [size, unit] of units) {
    if (bytes >= size) {
      return `${Number((bytes / size).toFixed(1))} ${unit}`;
    }
  }
  return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
}

/** "1 trial", "2 trials": counts in messages agree with their noun. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

const SHOWN: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\v": "\\v", "\f": "\\f" };

/**
 * The CLI's contract is one line per error, so a message never carries a line break of its own
 * (a file name or a YAML excerpt may hold one): each is shown as the escape a reader would type.
 */
function oneLine(message: string): string {
  return message.replace(/[\n\r\v\f\u0085\u2028\u2029]/g, (ch) => SHOWN[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

import { writeSync } from "node:fs";

/** The exit code of a command stopped by Ctrl-C, as shells report a process ended by SIGINT (128 + 2). */
export const INTERRUPTED_EXIT_CODE = 130;

/**
 * What a long command has saved so far, so that Ctrl-C can say it and how to go on. The command
 * tells it as it goes: which experiment's trials run and where their journal is, how many of them
 * the journal holds, which results files are written.
 */
export class SavedWork {
  private trials: { experiment: string; journal: string | undefined; saved: number; total: number } | undefined;
  private readonly written: string[] = [];

  /** @param again the command that runs this one again, resuming what a journal holds. */
  constructor(private readonly again: string) {}

  /** An experiment's trials start: `saved` of `total` are in `journal` already (none without one). */
  running(experiment: string, journal: string | undefined, total: number | undefined, saved = 0): void {
    this.trials = { experiment, journal, saved, total: total ?? 0 };
  }

  /** `saved` trials of the running experiment are now in its journal. */
  progress(saved: number, total: number): void {
    if (this.trials === undefined) return;
    this.trials.saved = saved;
    this.trials.total = total;
  }

  /** The running experiment's results are on disk (its journal is gone). */
  wrote(file: string): void {
    this.trials = undefined;
    this.written.push(file);
  }

  /** The one line Ctrl-C prints. */
  message(): string {
    const written = this.written.length === 0 ? "" : `; written before it: ${this.written.join(", ")}`;
    const { trials } = this;
    if (trials === undefined) {
      return this.written.length === 0
        ? `interrupted; nothing was saved; run it again with \`${this.again}\``
        : `interrupted after the trials${written}; \`${this.again}\` runs the rest again`;
    }
    if (trials.journal === undefined) return `interrupted while ${trials.experiment} ran; this command keeps no journal, so nothing of it was saved${written}`;
    const of = trials.total > 0 ? ` of ${trials.total}` : "";
    return `interrupted: ${trials.saved}${of} trials of ${trials.experiment} are saved in ${trials.journal}${written}; resume with \`${this.again}\``;
  }
}

/**
 * Until the returned function is called, Ctrl-C (SIGINT) runs `stop` (which must be quick: it
 * lifts a progress bar), prints `message()` as one line on standard error and exits with 130.
 * Journal lines are appended synchronously, so whatever the message counts is on disk.
 */
export function onInterrupt(message: () => string, stop: () => void): () => void {
  const handler = () => {
    stop();
    writeSync(2, `recollect: ${message()}\n`);
    process.exit(INTERRUPTED_EXIT_CODE);
  };
  process.once("SIGINT", handler);
  return () => process.off("SIGINT", handler);
}

/** An argument as a POSIX shell reads it back: bare when that is safe, otherwise in single quotes. */
export function shellQuote(arg: string): string {
  return /^[\w./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * The command line that runs `argv` (the arguments after the script, the command first) again,
 * resuming rather than starting afresh: in the form the user ran it, `npm run <command> -- …`
 * when npm started it, else through the package's bin.
 */
export function againCommand(argv: readonly string[], npmScript: string | undefined): string {
  const [command = "", ...rest] = argv.filter((arg) => arg !== "--no-resume");
  const args = rest.map(shellQuote).join(" ");
  if (npmScript === command) return `npm run ${command}${args === "" ? "" : ` -- ${args}`}`;
  return `npx recollect ${[command, args].filter((part) => part !== "").join(" ")}`;
}

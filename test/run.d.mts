import type { Writable } from "node:stream";

/**
 * Runs `first` with its output passed through and `second` (lower in priority) beside it, its
 * output held until `first` ends. Resolves to the exit code: first's when it failed, else second's.
 */
export function runSideBySide(first: string[], second: string[], streams?: { out?: Writable; err?: Writable }): Promise<number>;

/** The check `npm test` runs: on a sample of each dataset's conversations, or all of them with RECOLLECT_CHECK=full. */
export function checkArgv(env?: Readonly<Record<string, string | undefined>>): string[];

/**
 * Reading a file a user named: one place that turns every way it can go wrong (absent, a
 * directory, unreadable, empty, too large, not text) into one message naming the file. Sizes are
 * checked before reading, so an oversized file costs neither the time nor the memory of parsing it.
 */
import { readFileSync, type Stats, statSync } from "node:fs";
import { fileError, formatBytes, unreadableFile } from "./errors.js";

const MiB = 1024 * 1024;

/**
 * The documented limits (README, "Limits"). A hand-written experiment or scenario is a few KiB;
 * a YAML file of 50 MB once took 67 s and 2.6 GB to parse, so YAML stops at 8 MiB. Generated
 * JSON (results, recordings, datasets) parses far faster and may be larger.
 */
export const SIZE_LIMITS = {
  yaml: 8 * MiB,
  json: 256 * MiB,
  policy: 1 * MiB,
} as const;

export interface ReadOptions {
  /** Files above this many bytes are refused before they are read. */
  maxBytes: number;
  /** What the file is, for messages: "experiment or scenario file". */
  what: string;
}

export function readTextFile(file: string, options: ReadOptions): string {
  const bytes = readCheckedFile(file, options);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw fileError(file, `is not UTF-8 text, so it cannot be ${article(options.what)}`, { cause: error });
  }
}

/** The bytes of a file, with every check of readTextFile but the one for text. */
export function readCheckedFile(file: string, options: ReadOptions): Buffer {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw fileError(file, "file not found", { cause: error });
    throw unreadableFile(file, error);
  }
  if (stats.isDirectory()) throw fileError(file, `is a directory, not ${article(options.what)}`);
  if (!stats.isFile()) throw fileError(file, `is not a regular file, so it cannot be ${article(options.what)}`);
  const { size } = stats;
  if (size > options.maxBytes) {
    // Exact byte counts when rounding would show the size equal to the limit.
    const [shown, limit] = formatBytes(size) === formatBytes(options.maxBytes) ? [`${size} bytes`, `${options.maxBytes}-byte`] : [formatBytes(size), formatBytes(options.maxBytes)];
    throw fileError(file, `is ${shown}, over the ${limit} limit for ${article(options.what)}`);
  }
  if (size === 0) throw fileError(file, `is empty (0 bytes), not ${article(options.what)}`);
  try {
    return readFileSync(file);
  } catch (error) {
    throw unreadableFile(file, error);
  }
}

/** What a path names, in words ("a file", "a folder", "a FIFO", "a character device", …), for messages that refuse it. */
export function kindOf(stats: Stats): string {
  if (stats.isFile()) return "a file";
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "neither a file nor a folder";
}

function article(what: string): string {
  return /^[aeiou]/i.test(what) ? `an ${what}` : `a ${what}`;
}

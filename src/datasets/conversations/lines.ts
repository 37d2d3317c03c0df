import { createHash } from "node:crypto";
import { closeSync, createReadStream, openSync, readSync, type Stats, statSync } from "node:fs";
import { PassThrough, Transform } from "node:stream";
import { createGunzip } from "node:zlib";
import { fileError, isRecollectError } from "../../shared/errors.js";
import { kindOf } from "../../shared/read-file.js";

/**
 * Reads a JSON Lines file (plain, or gzip-compressed: recognised by its magic bytes, whatever
 * its name) one line at a time, so memory holds one line rather than the file. Lines are decoded
 * as strict UTF-8; a byte sequence that is not UTF-8 is an error naming its line, never a silent
 * replacement character.
 */

/** Longer lines are refused before they are decoded: one conversation should never come near it. */
export const MAX_LINE_BYTES = 64 * 2 ** 20;

const GZIP_MAGIC = [0x1f, 0x8b];
const NEWLINE = 0x0a;

export interface Line {
  /** 1-based line number in the (decompressed) file. */
  number: number;
  text: string;
}

export interface LineSource {
  lines: AsyncGenerator<Line>;
  /** sha256 of the file's bytes as stored (compressed, for a .gz); complete once `lines` is done. */
  sha256(): string;
}

export function readLines(file: string, display = file, maxLineBytes = MAX_LINE_BYTES): LineSource {
  checkReadable(file, display);
  const hash = createHash("sha256");
  let digest: string | undefined;
  const raw = createReadStream(file);
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // pipe() does not pass errors on, so each stage's error ends the stream that is read.
  const output: Transform = isGzip(file) ? createGunzip() : new PassThrough();
  raw.on("error", (error) => output.destroy(error));
  hashing.on("error", (error) => output.destroy(error));
  raw.pipe(hashing).pipe(output);

  async function* lines(): AsyncGenerator<Line> {
    const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let number = 0;
    const take = (tail: Buffer): Line => {
      const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
      pending = [];
      pendingBytes = 0;
      number += 1;
      let text: string;
      try {
        text = decoder.decode(bytes);
      } catch (error) {
        throw fileError(`${display}:${number}`, "not valid UTF-8", { cause: error });
      }
      if (number === 1 && text.startsWith("\uFEFF")) text = text.slice(1);
      return { number, text: text.endsWith("\r") ? text.slice(0, -1) : text };
    };
    try {
      for await (const chunk of output as AsyncIterable<Buffer>) {
        let start = 0;
        for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
          checkLength(pendingBytes + end - start, maxLineBytes, number + 1, display);
          yield take(chunk.subarray(start, end));
          start = end + 1;
        }
        if (start < chunk.length) {
          pending.push(chunk.subarray(start));
          pendingBytes += chunk.length - start;
          checkLength(pendingBytes, maxLineBytes, number + 1, display);
        }
      }
    } catch (error) {
      throw readError(error, display);
    } finally {
      raw.destroy();
    }
    if (pendingBytes > 0) yield take(Buffer.alloc(0));
    digest = hash.digest("hex");
  }

  return {
    lines: lines(),
    sha256() {
      if (digest === undefined) throw new Error("sha256() is only known once every line has been read");
      return digest;
    },
  };
}

/**
 * Only a regular file is read: a FIFO would block the run on opening it until something writes,
 * and a device such as /dev/zero never ends. stat opens neither.
 */
function checkReadable(file: string, display: string): void {
  let stats: Stats;
  try {
    stats = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw fileError(display, code === "ENOENT" ? "data file not found" : `cannot read the data file (${code ?? (error as Error).message})`, { cause: error });
  }
  if (stats.isDirectory()) throw fileError(display, "is a folder, not a file; name a conversation JSON Lines file");
  if (!stats.isFile()) throw fileError(display, `is not a regular file (${kindOf(stats)}); name a conversation JSON Lines file`);
}

function isGzip(file: string): boolean {
  const head = Buffer.alloc(2);
  const fd = openSync(file, "r");
  try {
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  } finally {
    closeSync(fd);
  }
}

function checkLength(bytes: number, max: number, line: number, display: string): void {
  if (bytes <= max) return;
  const limit = max % 2 ** 20 === 0 ? `${max / 2 ** 20} MiB` : `${max} bytes`;
  throw fileError(`${display}:${line}`, `line longer than ${limit}; a line holds one conversation, and no more`);
}

function readError(error: unknown, display: string): unknown {
  if (isRecollectError(error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === "string" && code.startsWith("Z_")) return fileError(display, `not a valid gzip file (${(error as Error).message})`, { cause: error });
  if (typeof code === "string") return fileError(display, `cannot read the data file (${code})`, { cause: error });
  return error;
}

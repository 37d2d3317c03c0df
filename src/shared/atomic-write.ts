import * as fs from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { unwritableFile } from "./errors.js";

/**
 * The file-system calls an atomic write makes. Tests pass their own to make a call fail or write
 * short, as a full disk does, without touching the real `fs` module.
 */
export type AtomicWriteFs = Pick<
  typeof fs,
  "mkdirSync" | "realpathSync" | "statSync" | "openSync" | "fchmodSync" | "writeSync" | "fsyncSync" | "closeSync" | "renameSync" | "rmSync"
>;

/**
 * Writes through a temporary file in the same folder and a rename, so the file is either complete
 * or untouched, and a reader never sees half of it. A path that cannot be written (a read-only
 * folder, a file where a folder should be, a full disk) is a FileError naming the file, and the
 * temporary file is removed.
 *
 * It does not use `write-file-atomic`: its sync call makes one `writeSync` and never checks how
 * many bytes went down, so on a nearly full disk it renames a truncated file into place and
 * reports success.
 */
export function writeFileAtomicSync(path: string, data: string | Buffer, io: AtomicWriteFs = fs): void {
  try {
    io.mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw unwritableFile(path, error) ?? error;
  }
  // Through a symbolic link, the file it points to is replaced and the link stays.
  const target = realTarget(path, io);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = io.openSync(temporary, "wx", 0o666);
    // A file that is replaced keeps its permissions, as an editor saving it would.
    const existing = io.statSync(target, { throwIfNoEntry: false });
    if (existing?.isFile()) io.fchmodSync(fd, existing.mode & 0o7777);
    writeAll(io, fd, typeof data === "string" ? Buffer.from(data, "utf8") : data);
    // Before the rename, so a crash can never leave the name pointing at blocks not yet on disk.
    io.fsyncSync(fd);
    const closing = fd;
    fd = undefined;
    io.closeSync(closing);
    io.renameSync(temporary, target);
  } catch (error) {
    discard(io, temporary, fd);
    throw unwritableFile(path, error) ?? error;
  }
}

/**
 * `writeSync` may write fewer bytes than asked (a disk with a little room left takes what fits),
 * so it is called until every byte is down; the call after a short write is the one that reports
 * the full disk.
 */
function writeAll(io: AtomicWriteFs, fd: number, bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length; ) {
    const written = io.writeSync(fd, bytes, offset, bytes.length - offset);
    // A regular file takes no bytes only when there is no room, and asking again would spin.
    if (written <= 0) throw Object.assign(new Error("write made no progress"), { code: "ENOSPC" });
    offset += written;
  }
}

function realTarget(path: string, io: AtomicWriteFs): string {
  try {
    return io.realpathSync(path);
  } catch {
    // A file not yet written has no real path of its own; it is created where it is named.
    return path;
  }
}

/** Best effort: the error that got here is the one to report, not a failure to clean up after it. */
function discard(io: AtomicWriteFs, temporary: string, fd: number | undefined): void {
  if (fd !== undefined) {
    try {
      io.closeSync(fd);
    } catch {
      // The descriptor may already be gone; the file is removed either way.
    }
  }
  try {
    io.rmSync(temporary, { force: true });
  } catch {
    // Left only when the folder itself refuses changes, and then nothing else was written there.
  }
}

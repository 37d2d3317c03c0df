import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { unwritableFile } from "./errors.js";

/**
 * Writes through a temporary file and a rename, so a reader never sees half a file. A path that
 * cannot be written (a read-only folder, a file where a folder should be, a full disk) is a
 * FileError naming the file.
 */
export function writeFileAtomicSync(path: string, data: string | Buffer): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic.sync(path, data);
  } catch (error) {
    throw unwritableFile(path, error) ?? error;
  }
}

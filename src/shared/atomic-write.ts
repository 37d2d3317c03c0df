import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import writeFileAtomic from "write-file-atomic";

/** Writes through a temporary file and a rename, so a reader never sees half a file. */
export function writeFileAtomicSync(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic.sync(path, data);
}

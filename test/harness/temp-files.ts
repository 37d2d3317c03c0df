import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";

/** The repository root, for files the tests read (scenarios/, results/). */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export const repoPath = (relative: string) => join(REPO_ROOT, relative);

export interface TempDir {
  dir: string;
  path(name: string): string;
  /** Writes `text` to `name` inside the folder (creating subfolders) and returns its path. */
  write(name: string, text: string): string;
}

/** A temporary folder for the files one test file writes; it is removed when the file's tests end. */
export function useTempDir(prefix = "recollect-test-"): TempDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const path = (name: string) => join(dir, name);
  return {
    dir,
    path,
    write(name, text) {
      const file = path(name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
  };
}

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { type MemoryStore, openStore } from "../../src/memory/store/store.js";
import { loadGemmaTokenizer } from "../../src/memory/tokenizer.js";

export const tokenizer = await loadGemmaTokenizer();

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh path in a temporary directory removed after the test. */
export function tempPath(name = "memory.sqlite"): string {
  const dir = mkdtempSync(join(tmpdir(), "recollect-memory-"));
  dirs.push(dir);
  return join(dir, name);
}

export function memoryStore(file = ":memory:"): MemoryStore {
  return openStore(file, { tokenizer });
}

export const HOUR = 3_600_000;
/** An arbitrary fixed virtual time. */
export const T0 = Date.UTC(2024, 5, 1, 12, 0, 0);

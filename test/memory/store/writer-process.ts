/**
 * One writer of a shared store file, run as its own process by the store tests:
 * `node --import tsx writer-process.ts FILE WRITE`, where WRITE is the JSON of a `NewMemory`
 * (with `supersedes`, written through `correct`). It opens the store, says "ready" on stdout, and writes only
 * when a line arrives on stdin, so that every writer opens the file before any of them writes.
 * It prints one JSON line: `{"written": id}` or `{"refused": message}` (a RecollectError).
 */
import { createInterface } from "node:readline";
import { openStore } from "../../../src/memory/store/store.js";
import { loadGemmaTokenizer } from "../../../src/memory/tokenizer.js";
import type { NewMemory } from "../../../src/memory/types.js";
import { isRecollectError } from "../../../src/shared/errors.js";

const [file, write] = process.argv.slice(2);
const store = openStore(file!, { tokenizer: await loadGemmaTokenizer() });
const memory = JSON.parse(write!) as NewMemory;
const lines = createInterface({ input: process.stdin });
console.log("ready");
await new Promise((resolve) => lines.once("line", resolve));
lines.close();
try {
  const { supersedes, ...rest } = memory;
  const written = supersedes ? store.correct(supersedes, rest) : store.remember(rest);
  console.log(JSON.stringify({ written: written.id }));
} catch (error) {
  if (!isRecollectError(error)) throw error;
  console.log(JSON.stringify({ refused: error.message }));
} finally {
  store.close();
}

/*
 * Writers in separate processes on one store file. Kept apart from store.test.ts because the
 * writers are child processes: mutation testing (vitest.mutation.config.ts) leaves this file out,
 * since a child runs the store's code without the mutant under test and so cannot kill it.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openStore } from "../../../src/memory/store/store.js";
import type { NewMemory } from "../../../src/memory/types.js";
import { T0, tempPath, tokenizer } from "../helpers.js";

const fact = { scope: "ana", kind: "semantic" as const, createdAt: T0 };

describe("writers in two processes on one file", () => {
  it("two processes correcting one memory at once: exactly one wins, the other is told which one did", async () => {
    const file = tempPath();
    const store = openStore(file, { tokenizer });
    store.remember({ ...fact, id: "price", text: "The room costs 50 euros." });
    store.close();
    const outcomes = await writeAtOnce(file, [
      { ...fact, id: "100", supersedes: "price", text: "The room costs 100 euros." },
      { ...fact, id: "200", supersedes: "price", text: "The room costs 200 euros." },
    ]);
    const winners = outcomes.filter((o) => o.written !== undefined).map((o) => o.written);
    expect(winners).toHaveLength(1);
    const [winner] = winners;
    const loser = winner === "100" ? "200" : "100";
    expect(outcomes.find((o) => o.refused !== undefined)?.refused).toBe(
      `cannot write ${loser} as the correction of price: price is already corrected by ${winner}; correct ${winner} instead`,
    );
    const after = openStore(file, { tokenizer });
    expect(after.current("ana", T0).map((m) => m.id)).toEqual([winner]);
    expect(after.get("ana", loser!)).toBeUndefined();
    after.close();
  });

  it("two processes creating one new file and writing with default ids at once both succeed, with different ids", async () => {
    const file = tempPath();
    const outcomes = await writeAtOnce(file, [
      { ...fact, text: "Ana moved to Lisbon." },
      { ...fact, text: "Ana got a dog." },
    ]);
    expect(outcomes.map((o) => o.written).sort()).toEqual(["ana#1", "ana#2"]);
    const after = openStore(file, { tokenizer });
    expect(after.current("ana", T0).map((m) => m.id)).toEqual(["ana#1", "ana#2"]);
    after.close();
  });
});

const WRITER = fileURLToPath(new URL("./writer-process.ts", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

interface WriterOutcome {
  written?: string;
  refused?: string;
}

/**
 * Runs one writer process per memory on `file`. Each opens the store first; only once all have
 * opened it are they told to write, so each writes from a view of the file that misses the others.
 */
async function writeAtOnce(file: string, memories: NewMemory[]): Promise<WriterOutcome[]> {
  const writers = memories.map((memory) => {
    const child = spawn(process.execPath, ["--import", "tsx", WRITER, file, JSON.stringify(memory)], { cwd: REPO_ROOT });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const next = async () => {
      const line = await lines.next();
      if (line.done) throw new Error(`writer process ended early: ${stderr}`);
      return line.value;
    };
    return { child, next };
  });
  for (const writer of writers) expect(await writer.next()).toBe("ready");
  for (const writer of writers) writer.child.stdin.write("go\n");
  return Promise.all(writers.map(async (writer) => JSON.parse(await writer.next()) as WriterOutcome));
}

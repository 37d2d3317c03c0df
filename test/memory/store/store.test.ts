import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { renderLine } from "../../../src/memory/escape.js";
import { openStore } from "../../../src/memory/store/store.js";
import { DEFAULT_IMPORTANCE, type NewMemory } from "../../../src/memory/types.js";
import { HOUR, memoryStore, T0, tempPath, tokenizer } from "../helpers.js";
import { userError } from "../../helpers/user-error.js";

const fact = { scope: "ana", kind: "semantic" as const, createdAt: T0 };

describe("remember", () => {
  it("fills defaults and prices the memory's line with the tokenizer", () => {
    const store = memoryStore();
    const m = store.remember({ ...fact, text: "Ana is vegetarian." });
    expect(m).toMatchObject({
      id: "ana#1",
      lastAccessedAt: T0,
      importance: DEFAULT_IMPORTANCE,
      occurredAt: null,
      supersedes: null,
      expiresAt: null,
      embedding: null,
      tokens: tokenizer.count(renderLine("Ana is vegetarian.")),
    });
    expect(store.get("ana", m.id)).toEqual(m);
  });

  it("round-trips every field, embedding included", () => {
    const store = memoryStore();
    const m = store.remember({
      id: "e1",
      scope: "ana",
      kind: "episodic",
      text: "Went to Porto",
      createdAt: T0,
      occurredAt: T0 - 48 * HOUR,
      lastAccessedAt: T0 + 1,
      importance: 7.5,
      expiresAt: T0 + HOUR,
      source: "turn-3",
      embedding: { model: "nomic-embed-text", vector: [0.25, -1, 3] },
    });
    const back = store.get("ana", "e1");
    expect(back).toEqual(m);
    expect(back?.embedding).toEqual(Float32Array.from([0.25, -1, 3]));
    expect(back?.embeddingModel).toBe("nomic-embed-text");
  });

  it("refuses a duplicate id and a bad kind, as errors a user caused", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "x", text: "a" });
    expect(userError(() => store.remember({ ...fact, id: "x", text: "b" })).message).toBe('memory x already exists in scope "ana"');
    expect(userError(() => store.remember({ ...fact, kind: "dream" as never, text: "b" })).message).toBe('unknown memory kind "dream"');
  });

  it("gives a default id past every id already stored in the scope, not only those of the batch", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "ana#2", text: "stored with an explicit id" });
    expect(store.remember({ ...fact, text: "no id given" }).id).toBe("ana#3");
    expect(store.rememberMany([{ ...fact, text: "a" }, { ...fact, text: "b" }]).map((m) => m.id)).toEqual(["ana#4", "ana#5"]);
  });

  it("refuses an embedding whose size differs from the scope's", () => {
    const store = memoryStore();
    store.remember({ ...fact, text: "a", embedding: { model: "m", vector: [1, 0] } });
    expect(() =>
      store.remember({ ...fact, text: "b", embedding: { model: "m", vector: [1, 0, 0] } }),
    ).toThrow(/dimensions/);
  });

  it("refuses times and embedding values that are not finite, an embedding value too large for float32 included", () => {
    const store = memoryStore();
    expect(() => store.remember({ ...fact, text: "a", lastAccessedAt: Number.NaN })).toThrow(/lastAccessedAt must be a finite number/);
    const vector = (x: number) => ({ model: "m", vector: [1, x, 0] });
    expect(() => store.remember({ ...fact, id: "n", text: "a", embedding: vector(Number.NaN) })).toThrow(/memory n: embedding value 1 is NaN/);
    expect(() => store.remember({ ...fact, id: "big", text: "a", embedding: vector(1e300) })).toThrow(/not a finite float32 number/);
    expect(store.size()).toBe(0);
  });
});

describe("rememberMany", () => {
  it("writes all memories or none", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "taken", text: "a" });
    expect(() =>
      store.rememberMany([
        { ...fact, id: "new", text: "b" },
        { ...fact, id: "taken", text: "c" },
      ]),
    ).toThrow();
    expect(store.get("ana", "new")).toBeUndefined();
    expect(store.size()).toBe(1);
    const many = store.rememberMany([
      { ...fact, text: "b" },
      { ...fact, text: "c" },
    ]);
    expect(many.map((m) => m.id)).toEqual(["ana#2", "ana#3"]);
    expect(store.size("ana")).toBe(3);
  });
});

describe("corrections and expiry", () => {
  it("a corrected memory stays readable but is no longer current", () => {
    const store = memoryStore();
    const old = store.remember({ ...fact, text: "Ana lives in Porto." });
    const fix = store.correct(old.id, { ...fact, createdAt: T0 + HOUR, text: "Ana lives in Lisbon." });
    expect(fix.supersedes).toBe(old.id);
    expect(store.get("ana", old.id)?.text).toBe("Ana lives in Porto.");
    expect(store.current("ana", T0 + 2 * HOUR).map((m) => m.id)).toEqual([fix.id]);
  });

  it("a correction written before its target still supersedes it", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "fix", supersedes: "old", text: "new" });
    store.remember({ ...fact, id: "old", text: "old" });
    expect(store.current("ana", T0).map((m) => m.id)).toEqual(["fix"]);
  });

  it("refuses a second correction of one memory, naming both, and a correction of a memory not in the scope", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "old", text: "old" });
    store.correct("old", { ...fact, id: "fix", text: "new" });
    expect(userError(() => store.correct("old", { ...fact, id: "again", text: "newer" })).message).toBe(
      "cannot write again as the correction of old: old is already corrected by fix; correct fix instead",
    );
    expect(userError(() => store.correct("fix", { ...fact, scope: "ben", text: "x" })).message).toBe('cannot correct fix: no such memory in scope "ben"');
    expect(() => store.correct("nope", { ...fact, text: "x" })).toThrow(/no such memory/);
    expect(store.size()).toBe(2);
  });

  it("refuses a batch that corrects one memory twice, and writes none of it", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "old", text: "old" });
    const twice = [
      { ...fact, id: "a", supersedes: "old", text: "a" },
      { ...fact, id: "b", supersedes: "old", text: "b" },
    ];
    expect(userError(() => store.rememberMany(twice)).message).toBe("cannot write b as the correction of old: old is already corrected by a; correct a instead");
    expect(store.size("ana")).toBe(1);
    expect(store.index("ana")?.isCurrent(0, T0)).toBe(true);
    expect(store.current("ana", T0).map((m) => m.id)).toEqual(["old"]);
  });

  it("is enforced by SQLite itself: a second correction written past the store is refused", () => {
    const file = tempPath();
    const store = openStore(file, { tokenizer });
    store.remember({ ...fact, id: "old", text: "old" });
    store.correct("old", { ...fact, id: "fix", text: "new" });
    store.close();
    const db = new Database(file);
    const insert = db.prepare(
      "INSERT INTO memories (id, scope, kind, text, created_at, last_accessed_at, importance, tokens, supersedes) VALUES (?, ?, 'semantic', 't', 0, 0, 5, 1, 'old')",
    );
    expect(() => insert.run("other", "ana")).toThrow(/UNIQUE constraint failed: memories\.scope, memories\.supersedes/);
    expect(() => insert.run("other", "ben")).not.toThrow();
    db.close();
  });

  it("an expired memory is not current from its expiry on", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "e", text: "gate B12", expiresAt: T0 + HOUR });
    expect(store.current("ana", T0 + HOUR - 1).map((m) => m.id)).toEqual(["e"]);
    expect(store.current("ana", T0 + HOUR)).toEqual([]);
  });
});

describe("scopes", () => {
  it("each have their own ids: one scope neither learns of another's ids nor blocks them with a correction", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "x", text: "Ana's x" });
    store.remember({ ...fact, scope: "ben", id: "fix", supersedes: "x", text: "Ben's fix of his own x" });
    expect(store.current("ana", T0).map((m) => m.id)).toEqual(["x"]);
    store.remember({ ...fact, scope: "ben", id: "x", text: "Ben's x" });
    expect(store.current("ben", T0).map((m) => m.text)).toEqual(["Ben's fix of his own x"]);
    expect(store.get("ana", "x")?.text).toBe("Ana's x");
    expect(store.get("ben", "x")?.text).toBe("Ben's x");
    expect(store.get("ben", "ghost")).toBeUndefined();
    store.correct("x", { ...fact, id: "fix", text: "Ana's fix" });
    expect(store.current("ana", T0).map((m) => m.text)).toEqual(["Ana's fix"]);
    expect(userError(() => store.touch("ben", ["x", "nope"], T0)).message).toBe('cannot touch nope: no such memory in scope "ben"');
    expect(store.size()).toBe(4);
  });

  it("keep users apart", () => {
    const store = memoryStore();
    store.remember({ ...fact, text: "Ana likes tea." });
    store.remember({ ...fact, scope: "ben", text: "Ben likes coffee." });
    expect(store.current("ana", T0).map((m) => m.text)).toEqual(["Ana likes tea."]);
    expect(store.current("ben", T0).map((m) => m.text)).toEqual(["Ben likes coffee."]);
    expect(store.size("ana")).toBe(1);
    expect(store.scopes().sort()).toEqual(["ana", "ben"]);
  });
});

describe("files", () => {
  it("uses WAL and keeps everything, touches included, across reopening", () => {
    const file = tempPath();
    const store = openStore(file, { tokenizer });
    store.remember({ ...fact, id: "a", text: "Ana likes tea." });
    store.correct("a", { ...fact, id: "b", text: "Ana likes green tea." });
    store.touch("ana", ["b"], T0 + 5 * HOUR);
    store.close();
    const db = new Database(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("user_version", { simple: true })).toBe(4);
    db.close();
    const again = openStore(file, { tokenizer });
    expect(again.current("ana", T0).map((m) => m.id)).toEqual(["b"]);
    expect(again.get("ana", "b")?.lastAccessedAt).toBe(T0 + 5 * HOUR);
    expect(again.index("ana")?.isCurrent(0, T0)).toBe(false);
    again.close();
  });

  it("refuses a file that is not SQLite with a UserError naming it", () => {
    const file = tempPath("notes.sqlite");
    writeFileSync(file, "this is not a database, just some text that is long enough ".repeat(20));
    const error = userError(() => openStore(file, { tokenizer }));
    expect((error as Error).message).toContain(file);
  });

  it("refuses an SQLite file that is some other program's database", () => {
    const file = tempPath();
    const db = new Database(file);
    db.exec("CREATE TABLE t (x)");
    db.close();
    expect(() => openStore(file, { tokenizer })).toThrow(/not a recollect memory store/);
  });

  it("refuses a directory, a device and an empty file, naming each, and creates nothing", () => {
    const dir = tempPath("folder.sqlite");
    mkdirSync(dir);
    expect(userError(() => openStore(dir, { tokenizer })).message).toBe(`${dir}: is a directory, not a memory store`);
    expect(userError(() => openStore("/dev/null", { tokenizer })).message).toBe("/dev/null: is not a regular file, so it cannot be a memory store");
    const empty = tempPath("empty.sqlite");
    writeFileSync(empty, "");
    expect(userError(() => openStore(empty, { tokenizer })).message).toBe(
      `${empty}: is an empty file, not a memory store; remove it, or name a path that does not exist yet to create a store there`,
    );
    expect(readdirSync(dirname(empty))).toEqual(["empty.sqlite"]);
  });

  it("names the file when its folder does not exist", () => {
    const file = tempPath("no-such-folder/memory.sqlite");
    expect(userError(() => openStore(file, { tokenizer })).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: cannot open the memory store \\(`));
  });

  it.skipIf(process.getuid?.() === 0)("refuses a read-only store before SQLite leaves its journal files beside it", () => {
    const file = tempPath();
    openStore(file, { tokenizer }).close();
    chmodSync(file, 0o444);
    expect(userError(() => openStore(file, { tokenizer })).message).toBe(`${file}: is read-only: the memory store must be writable`);
    expect(readdirSync(dirname(file))).toEqual(["memory.sqlite"]);
  });

  it("refuses unknown ids when touching", () => {
    const store = memoryStore();
    expect(() => store.touch("ana", ["ghost"], T0)).toThrow(/no such memory/);
  });
});

describe("several writers on one file", () => {
  it("a store loads what another connection committed before it writes: its checks and default ids see the whole file", () => {
    const file = tempPath();
    const a = openStore(file, { tokenizer });
    const b = openStore(file, { tokenizer });
    a.remember({ ...fact, id: "price", text: "The room costs 50 euros." });
    expect(a.remember({ ...fact, text: "no id given" }).id).toBe("ana#2");
    a.correct("price", { ...fact, id: "100", text: "The room costs 100 euros." });
    // b opened before any of it: it learns of price, ana#2 and 100 when it writes, not before.
    expect(b.size()).toBe(0);
    expect(b.remember({ ...fact, text: "no id given either" }).id).toBe("ana#4");
    expect(userError(() => b.correct("price", { ...fact, id: "200", text: "The room costs 200 euros." })).message).toBe(
      "cannot write 200 as the correction of price: price is already corrected by 100; correct 100 instead",
    );
    expect(b.current("ana", T0).map((m) => m.id)).toEqual(["ana#2", "100", "ana#4"]);
    const index = b.index("ana")!;
    expect(index.ids).toEqual(["price", "ana#2", "100", "ana#4"]);
    expect([0, 1, 2, 3].map((slot) => index.isCurrent(slot, T0))).toEqual([false, true, true, true]);
    a.close();
    b.close();
  });

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

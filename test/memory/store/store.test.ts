import { chmodSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isMainThread } from "node:worker_threads";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { renderLine } from "../../../src/memory/escape.js";
import { CATCH_UP_CHUNK, type MemoryStore, openStore, scopeIndex, touchSlots } from "../../../src/memory/store/store.js";
import { DEFAULT_IMPORTANCE } from "../../../src/memory/types.js";
import { HOUR, memoryStore, T0, tempPath, tokenizer } from "../helpers.js";
import { FileError } from "../../../src/shared/errors.js";
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

  it("stores a Float32Array embedding without copying it first, yet keeps what was written when the caller's array changes later", () => {
    const store = memoryStore();
    const vector = Float32Array.from([0.5, 2, -4]);
    const written = store.remember({ ...fact, id: "v", text: "a", embedding: { model: "m", vector } });
    expect(written.embedding).toBe(vector);
    vector.fill(9);
    expect(store.get("ana", "v")?.embedding).toEqual(Float32Array.from([0.5, 2, -4]));
    const index = scopeIndex(store, "ana")!;
    expect(index.embeddings.subarray(0, 3)).toEqual(Float32Array.from([0.5, 2, -4]));
    expect(index.vectors?.norm(0)).toBe(Math.sqrt(0.25 + 4 + 16));
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
    // Earlier in the batch: an id of another scope blocks nothing, one of this scope is skipped.
    expect(store.rememberMany([{ ...fact, scope: "ben", id: "ana#6", text: "c" }, { ...fact, text: "d" }]).map((m) => m.id)).toEqual([
      "ana#6",
      "ana#6",
    ]);
    expect(store.rememberMany([{ ...fact, id: "ana#7", text: "e" }, { ...fact, text: "f" }]).map((m) => m.id)).toEqual(["ana#7", "ana#8"]);
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

  it("refuses a text that is not a string and a scope that is empty or not a string, naming the problem", () => {
    const store = memoryStore();
    expect(userError(() => store.remember({ ...fact, text: 42 as never })).message).toBe("memory text must be a string");
    expect(userError(() => store.remember({ ...fact, scope: "", text: "a" })).message).toBe("memory scope is empty");
    expect(userError(() => store.remember({ ...fact, scope: 7 as never, text: "a" })).message).toBe("memory scope is empty");
    expect(store.size()).toBe(0);
  });

  it("names the field that is not a finite number", () => {
    const store = memoryStore();
    expect(userError(() => store.remember({ ...fact, createdAt: Number.NaN, text: "a" })).message).toBe("memory createdAt must be a finite number, got NaN");
    expect(userError(() => store.remember({ ...fact, createdAt: "1" as never, text: "a" })).message).toBe("memory createdAt must be a finite number, got 1");
    expect(store.size()).toBe(0);
  });

  it("refuses importance outside 1–10 or not a finite number, naming the memory", () => {
    const store = memoryStore();
    for (const importance of [-5, 0, 0.99, 10.01, 1e308, Number.POSITIVE_INFINITY, Number.NaN, "7" as never]) {
      expect(userError(() => store.remember({ ...fact, id: "x", importance, text: "a" })).message).toBe(
        `memory x: importance must be a number from 1 to 10, got ${String(importance)}`,
      );
    }
    expect(userError(() => store.remember({ ...fact, importance: -5, text: "a" })).message).toBe("memory ana#1: importance must be a number from 1 to 10, got -5");
    expect(store.size()).toBe(0);
    expect(store.rememberMany([1, 5.5, 10].map((importance, i) => ({ ...fact, id: `ok${i}`, importance, text: "a" }))).map((m) => m.importance)).toEqual([1, 5.5, 10]);
  });

  it("refuses an empty id and an id with a control character (C0, DEL, C1), showing each as its escape", () => {
    const store = memoryStore();
    expect(userError(() => store.remember({ ...fact, id: "", text: "a" })).message).toBe("memory id is empty; give a non-empty id, or none for the store to make one");
    for (const [id, shown, code] of [
      ["x\u0000y", "x\\u0000y", "U+0000"],
      ["line\nbreak", "line\\u000abreak", "U+000A"],
      ["\u001f", "\\u001f", "U+001F"],
      ["del\u007f", "del\\u007f", "U+007F"],
      ["nel\u0085", "nel\\u0085", "U+0085"],
      ["c1\u009f", "c1\\u009f", "U+009F"],
    ]) {
      expect(userError(() => store.remember({ ...fact, id, text: "a" })).message).toBe(`memory id "${shown}" holds the control character ${code}; ids must be printable text`);
    }
    expect(userError(() => store.remember({ ...fact, id: 7 as never, text: "a" })).message).toBe("memory id must be a string, got number");
    expect(store.size()).toBe(0);
    // Printable text beyond ASCII is an id like any other; null asks for a default one.
    expect(store.remember({ ...fact, id: "café ☕ \u00a0", text: "a" }).id).toBe("café ☕ \u00a0");
    expect(store.remember({ ...fact, id: null as never, text: "b" }).id).toBe("ana#2");
  });

  it("refuses an empty embedding, and one whose size differs from the scope's stored or batched ones, naming the sizes", () => {
    const store = memoryStore();
    const embedding = (...vector: number[]) => ({ model: "m", vector });
    expect(userError(() => store.remember({ ...fact, id: "e", text: "a", embedding: embedding() })).message).toBe(
      'memory e: embedding has 0 dimensions; scope "ana" uses 0',
    );
    expect(userError(() => store.rememberMany([
      { ...fact, id: "two", text: "a", embedding: embedding(1, 0) },
      { ...fact, id: "three", text: "b", embedding: embedding(1, 0, 0) },
    ])).message).toBe('memory three: embedding has 3 dimensions; scope "ana" uses 2');
    expect(store.size()).toBe(0);
    store.remember({ ...fact, id: "two", text: "a", embedding: embedding(1, 0) });
    expect(userError(() => store.remember({ ...fact, id: "three", text: "b", embedding: embedding(1, 0, 0) })).message).toBe(
      'memory three: embedding has 3 dimensions; scope "ana" uses 2',
    );
    expect(store.rememberMany([{ ...fact, scope: "ben", id: "three", text: "b", embedding: embedding(1, 0, 0) }])[0].embedding).toEqual(
      Float32Array.from([1, 0, 0]),
    );
    expect(store.size()).toBe(2);
  });
});

describe("rememberMany", () => {
  it("returns an empty list for an empty batch without waiting for the write lock another connection holds", () => {
    const file = tempPath();
    const store = openStore(file, { tokenizer });
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    try {
      expect(store.rememberMany([])).toEqual([]);
    } finally {
      other.exec("ROLLBACK");
      other.close();
      store.close();
    }
  });

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

  it("names the first memory of a batch whose id was stored before it, not one the batch wrote first, and writes none of it", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "b", text: "stored before" });
    const short = ["c", "a", "b"].map((id) => ({ ...fact, id, text: id }));
    expect(userError(() => store.rememberMany(short)).message).toBe('memory b already exists in scope "ana"');
    // Past one multi-row insert: the taken id sits in a later statement of the batch.
    const long = Array.from({ length: 70 }, (_, i) => ({ ...fact, id: i === 50 ? "b" : `n${i}`, text: `n${i}` }));
    expect(userError(() => store.rememberMany(long)).message).toBe('memory b already exists in scope "ana"');
    expect(store.size("ana")).toBe(1);
    expect(store.rememberMany(long.filter((m) => m.id !== "b")).map((m) => m.id)).toEqual(long.filter((m) => m.id !== "b").map((m) => m.id));
  });

  it("refuses an id taken in another scope only there: ids are unique within a scope", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "x", text: "ana's" });
    expect(store.remember({ ...fact, scope: "ben", id: "x", text: "ben's" }).id).toBe("x");
    expect(userError(() => store.rememberMany([{ ...fact, scope: "ben", id: "y", text: "y" }, { ...fact, id: "x", text: "again" }])).message).toBe(
      'memory x already exists in scope "ana"',
    );
    expect(store.size()).toBe(2);
  });

  it("refuses one id given twice in a batch, after other ids, and writes none of it", () => {
    const store = memoryStore();
    const batch = ["x", "y", "x"].map((id) => ({ ...fact, id, text: id }));
    expect(userError(() => store.rememberMany(batch)).message).toBe('memory x already exists in scope "ana"');
    expect(store.size()).toBe(0);
  });

  it("writes a batch longer than one multi-row insert in order, numbered on from the rows before it", () => {
    const file = tempPath();
    const store = openStore(file, { tokenizer });
    store.remember({ ...fact, text: "first" });
    const texts = Array.from({ length: 70 }, (_, i) => `memory ${i}`);
    const written = store.rememberMany(texts.map((text) => ({ ...fact, text })));
    expect(written.map((m) => m.id)).toEqual(texts.map((_, i) => `ana#${i + 2}`));
    store.close();
    const again = openStore(file, { tokenizer });
    expect(again.current("ana", T0).map((m) => m.text)).toEqual(["first", ...texts]);
    expect(scopeIndex(again, "ana")?.ids).toEqual(["ana#1", ...written.map((m) => m.id)]);
    again.close();
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

  it("refuses a correction of a memory not written yet, so the memory written later stays current", () => {
    const store = memoryStore();
    expect(userError(() => store.remember({ ...fact, id: "x1", supersedes: "ghost", text: "new" })).message).toBe(
      'cannot write x1 as the correction of ghost: no such memory in scope "ana"',
    );
    store.remember({ ...fact, id: "ghost", text: "old" });
    expect(store.current("ana", T0).map((m) => m.id)).toEqual(["ghost"]);
  });

  it("a memory corrected later in its own batch is not current", () => {
    const store = memoryStore();
    store.rememberMany([
      { ...fact, id: "a", text: "Ana lives in Porto." },
      { ...fact, id: "b", supersedes: "a", text: "Ana lives in Lisbon." },
      { ...fact, id: "c", text: "Ana has a dog." },
      { ...fact, id: "d", supersedes: "c", text: "Ana has a cat." },
    ]);
    expect(store.current("ana", T0).map((m) => m.id)).toEqual(["b", "d"]);
    const index = scopeIndex(store, "ana")!;
    expect([0, 1, 2, 3].map((slot) => index.isCurrent(slot, T0))).toEqual([false, true, false, true]);
    expect(index.corpusStats(T0, false)).toEqual({ count: 2, words: 8 });
  });

  it("refuses a batch whose correction comes before what it corrects, and writes none of it", () => {
    const store = memoryStore();
    const batch = [
      { ...fact, id: "a", text: "Ana lives in Porto." },
      { ...fact, id: "d", supersedes: "c", text: "Ana has a cat." },
      { ...fact, id: "c", text: "Ana has a dog." },
    ];
    expect(userError(() => store.rememberMany(batch)).message).toBe(
      "cannot write d as the correction of c: it comes later in this batch; write a memory before its correction",
    );
    expect(store.size()).toBe(0);
  });

  it("refuses corrections that form a cycle within a batch, naming every memory around it, and writes none of it", () => {
    const store = memoryStore();
    const pair = [
      { ...fact, id: "a", supersedes: "b", text: "a" },
      { ...fact, id: "b", supersedes: "a", text: "b" },
    ];
    const refusal = "correct each other in a cycle, so none of them would stay current; a correction must follow the memory it corrects";
    expect(userError(() => store.rememberMany(pair)).message).toBe(`memories a → b → a ${refusal}`);
    const three = [
      { ...fact, id: "a", supersedes: "b", text: "a" },
      { ...fact, id: "b", supersedes: "c", text: "b" },
      { ...fact, id: "c", supersedes: "a", text: "c" },
    ];
    expect(userError(() => store.rememberMany(three)).message).toBe(`memories a → b → c → a ${refusal}`);
    expect(store.size()).toBe(0);
  });

  it("a store reopened reads its rows in chunks, and corrections across a chunk's edge hold either way round", () => {
    const file = tempPath();
    const store = openStore(file, { tokenizer });
    const filler = Array.from({ length: CATCH_UP_CHUNK - 2 }, (_, i) => ({ ...fact, id: `f${i}`, text: `filler ${i}` }));
    store.rememberMany([
      { ...fact, id: "early", text: "corrected from the next chunk" },
      { ...fact, id: "fix-late", text: "corrects a memory of the next chunk" },
      ...filler,
      { ...fact, id: "fix-early", supersedes: "early", text: "in the next chunk" },
      { ...fact, id: "late", text: "in the next chunk, corrected from the first" },
    ]);
    store.close();
    // A correction stored before its target, as a store written before corrections had to follow their targets may hold.
    const db = new Database(file);
    db.prepare("UPDATE memories SET supersedes = 'late' WHERE id = 'fix-late'").run();
    db.close();
    const again = openStore(file, { tokenizer });
    expect(again.size("ana")).toBe(CATCH_UP_CHUNK + 2);
    const current = currentSlots(again);
    expect(current.includes(0) || current.includes(CATCH_UP_CHUNK + 1)).toBe(false);
    expect(current).toHaveLength(CATCH_UP_CHUNK);
    again.close();
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
    expect(scopeIndex(store, "ana")?.isCurrent(0, T0)).toBe(true);
    expect(store.current("ana", T0).map((m) => m.id)).toEqual(["old"]);
  });

  it("refuses a batch that corrects one memory twice even when it corrects another memory in between", () => {
    const store = memoryStore();
    store.rememberMany([{ ...fact, id: "old", text: "old" }, { ...fact, id: "other", text: "other" }]);
    const batch = [
      { ...fact, id: "a", supersedes: "old", text: "a" },
      { ...fact, id: "c", supersedes: "other", text: "c" },
      { ...fact, id: "b", supersedes: "old", text: "b" },
    ];
    expect(userError(() => store.rememberMany(batch)).message).toBe("cannot write b as the correction of old: old is already corrected by a; correct a instead");
    expect(store.size()).toBe(2);
  });

  it("refuses a memory that corrects itself", () => {
    const store = memoryStore();
    expect(userError(() => store.remember({ ...fact, id: "x", supersedes: "x", text: "x" })).message).toBe("memory x cannot correct itself");
    expect(store.size()).toBe(0);
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
    expect(userError(() => store.remember({ ...fact, scope: "ben", id: "fix", supersedes: "x", text: "Ben's fix of Ana's x" })).message).toBe(
      'cannot write fix as the correction of x: no such memory in scope "ben"',
    );
    store.remember({ ...fact, scope: "ben", id: "x", text: "Ben's x" });
    store.remember({ ...fact, scope: "ben", id: "fix", supersedes: "x", text: "Ben's fix of his own x" });
    expect(store.current("ana", T0).map((m) => m.id)).toEqual(["x"]);
    expect(store.current("ben", T0).map((m) => m.text)).toEqual(["Ben's fix of his own x"]);
    expect(store.get("ana", "x")?.text).toBe("Ana's x");
    expect(store.get("ben", "x")?.text).toBe("Ben's x");
    expect(store.get("ben", "ghost")).toBeUndefined();
    store.correct("x", { ...fact, id: "fix", text: "Ana's fix" });
    expect(store.current("ana", T0).map((m) => m.text)).toEqual(["Ana's fix"]);
    expect(userError(() => store.touch("ben", ["x", "nope"], T0)).message).toBe('cannot touch nope: no such memory in scope "ben"');
    expect(store.size()).toBe(4);
  });

  it("take a batch that mixes them, each memory into its own scope's index, in order", () => {
    const store = memoryStore();
    store.rememberMany([
      { ...fact, id: "a1", text: "Ana one" },
      { ...fact, id: "a2", text: "Ana two" },
      { ...fact, scope: "ben", id: "b1", text: "Ben one" },
      { ...fact, id: "a3", text: "Ana three" },
      { ...fact, scope: "ben", id: "b2", supersedes: "b1", text: "Ben two" },
    ]);
    expect(scopeIndex(store, "ana")?.ids).toEqual(["a1", "a2", "a3"]);
    expect(scopeIndex(store, "ben")?.ids).toEqual(["b1", "b2"]);
    expect([0, 1].map((slot) => scopeIndex(store, "ben")?.isCurrent(slot, T0))).toEqual([false, true]);
    expect(store.size()).toBe(5);
  });

  it("keep users apart", () => {
    const store = memoryStore();
    store.remember({ ...fact, text: "Ana likes tea." });
    store.remember({ ...fact, scope: "ben", text: "Ben likes coffee." });
    expect(store.current("ana", T0).map((m) => m.text)).toEqual(["Ana likes tea."]);
    expect(store.current("ben", T0).map((m) => m.text)).toEqual(["Ben likes coffee."]);
    expect(store.size("ana")).toBe(1);
    expect(store.scopes().sort()).toEqual(["ana", "ben"]);
    expect(store.size("nobody")).toBe(0);
  });
});

describe("embeddings", () => {
  it("lends a scope's vectors in slot order with their dimension, and none for a scope without any", () => {
    const store = memoryStore();
    store.rememberMany([
      { ...fact, text: "a", embedding: { model: "e", vector: [1, 2] } },
      { ...fact, text: "b", embedding: { model: "e", vector: [3, 4] } },
      { ...fact, scope: "ben", text: "c" },
    ]);
    const stored = store.embeddings("ana");
    expect(stored?.dim).toBe(2);
    expect(stored?.chunks.map((c) => [...c.vectors])).toEqual([[1, 2, 3, 4]]);
    expect(stored?.chunks[0].wasmMemory).toBeNull(); // two vectors: read by plain JavaScript
    expect(store.embeddings("ben")).toBeUndefined();
    expect(store.embeddings("nobody")).toBeUndefined();
  });

  it("names the WebAssembly memory that holds a column large enough for the SIMD kernel", () => {
    const store = memoryStore();
    const dim = 384;
    store.rememberMany(Array.from({ length: 1000 }, (_, i) => ({ ...fact, text: `m${i}`, embedding: { model: "e", vector: new Float32Array(dim).fill(i) } })));
    const [chunk, ...more] = store.embeddings("ana")!.chunks;
    expect(more).toEqual([]);
    expect(chunk.vectors).toHaveLength(1000 * dim);
    expect(chunk.wasmMemory?.buffer).toBe(chunk.vectors.buffer);
    expect(chunk.vectors[999 * dim]).toBe(999);
  });

  it("is the only view of the index a store gives", () => {
    const store = memoryStore();
    store.remember({ ...fact, text: "a" });
    expect("index" in store).toBe(false);
    expect(scopeIndex(store, "ana")?.ids).toEqual(["ana#1"]);
  });
});

describe("files", () => {
  it("keeps a touch of many memories at once, each of them and none other, across reopening", () => {
    const file = tempPath();
    const store = openStore(file, { tokenizer });
    const ids = Array.from({ length: 40 }, (_, i) => `m${i}`);
    store.rememberMany(ids.map((id) => ({ ...fact, id, text: `Fact ${id}.` })));
    const touched = ids.filter((_, i) => i % 3 !== 1);
    store.touch("ana", touched, T0 + 7 * HOUR);
    store.close();
    const again = openStore(file, { tokenizer });
    expect(ids.filter((id) => again.get("ana", id)?.lastAccessedAt === T0 + 7 * HOUR)).toEqual(touched);
    again.close();
  });

  it("uses WAL and keeps everything, touches included, across reopening", () => {
    const file = tempPath();
    const store = openStore(file, { tokenizer });
    store.remember({ ...fact, id: "a", text: "Ana likes tea." });
    store.correct("a", { ...fact, id: "b", text: "Ana likes green tea." });
    store.touch("ana", ["b"], T0 + 5 * HOUR);
    store.close();
    const db = new Database(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("user_version", { simple: true })).toBe(5);
    db.close();
    const again = openStore(file, { tokenizer });
    expect(again.current("ana", T0).map((m) => m.id)).toEqual(["b"]);
    expect(again.get("ana", "b")?.lastAccessedAt).toBe(T0 + 5 * HOUR);
    expect(scopeIndex(again, "ana")?.isCurrent(0, T0)).toBe(false);
    again.close();
  });

  it("refuses a file that is not SQLite with a RecollectError naming it", () => {
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

  it("refuses a path ending in a slash as naming a folder, and creates nothing, not even the file before the slash", () => {
    const file = `${tempPath("new.sqlite")}/`;
    expect(userError(() => openStore(file, { tokenizer })).message).toBe(`${file}: ends in "/", so it names a folder, not a memory store file`);
    expect(readdirSync(dirname(file.slice(0, -1)))).toEqual([]);
  });

  it("refuses a file under /proc, which says it is 0 bytes long yet reads as text, as not a regular file rather than an empty one", () => {
    expect(userError(() => openStore("/proc/self/status", { tokenizer })).message).toBe(
      "/proc/self/status: is not a regular file (its size is given as 0 bytes, yet it reads as data, as files under /proc do), so it cannot be a memory store",
    );
  });

  it("names the file when its folder does not exist", () => {
    const file = tempPath("no-such-folder/memory.sqlite");
    expect(userError(() => openStore(file, { tokenizer })).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: cannot open the memory store \\(`));
  });

  it("keeps what SQLite said as the cause of the error that names the file", () => {
    const missing = tempPath("no-such-folder/memory.sqlite");
    const unopened = userError(() => openStore(missing, { tokenizer }));
    expect(unopened).toBeInstanceOf(FileError);
    expect((unopened as FileError).file).toBe(missing);
    expect(unopened.cause).toBeInstanceOf(Error);
    expect(unopened.message).toContain((unopened.cause as Error).message);
    const text = tempPath("notes.sqlite");
    writeFileSync(text, "this is not a database, just some text that is long enough ".repeat(20));
    const unusable = userError(() => openStore(text, { tokenizer }));
    expect((unusable as FileError).file).toBe(text);
    expect(unusable.cause).toBeInstanceOf(Database.SqliteError);
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

  it("touching no memories leaves the database alone: it works even on a closed store, whose other calls fail", () => {
    const store = memoryStore();
    store.remember({ ...fact, id: "a", text: "a" });
    store.close();
    expect(() => store.touch("ana", [], T0)).not.toThrow();
    expect(() => store.touch("ben", [], T0)).not.toThrow();
    expect(() => store.get("ana", "a")).toThrow(/The database connection is not open/);
  });

  it("refuses a store whose write lock another connection keeps, in SQLite's words, naming the file", () => {
    const file = tempPath();
    openStore(file, { tokenizer }).close();
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    try {
      expect(userError(() => openStore(file, { tokenizer })).message).toBe(`${file}: cannot be used as a memory store (database is locked)`);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
  });

  it("refuses a store whose write-ahead log SQLite cannot create, in SQLite's words, naming the file", () => {
    const file = tempPath();
    openStore(file, { tokenizer }).close();
    const db = new Database(file);
    db.pragma("journal_mode = DELETE");
    db.close();
    // The log's name leads into a folder that does not exist: read as it is, the store looks fine.
    symlinkSync(join(dirname(file), "no-such-folder", "log"), `${file}-wal`);
    expect(userError(() => openStore(file, { tokenizer })).message).toBe(`${file}: cannot be used as a memory store (unable to open database file)`);
  });

  // process.chdir exists only on the main thread; mutation testing runs the tests in worker threads.
  it.skipIf(!isMainThread)("opens SQLite's in-memory database for \":memory:\", whatever is named so in the working folder", () => {
    const folder = dirname(tempPath());
    mkdirSync(join(folder, ":memory:"));
    const cwd = process.cwd();
    process.chdir(folder);
    try {
      const store = memoryStore(":memory:");
      expect(store.remember({ ...fact, text: "a" }).id).toBe("ana#1");
      store.close();
    } finally {
      process.chdir(cwd);
    }
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
    const index = scopeIndex(b, "ana")!;
    expect(index.ids).toEqual(["price", "ana#2", "100", "ana#4"]);
    expect([0, 1, 2, 3].map((slot) => index.isCurrent(slot, T0))).toEqual([false, true, true, true]);
    a.close();
    b.close();
  });
});

/** The slots of scope "ana" that its index holds as current at T0. */
function currentSlots(store: MemoryStore): number[] {
  const index = scopeIndex(store, "ana")!;
  return Array.from({ length: index.size }, (_, slot) => slot).filter((slot) => index.isCurrent(slot, T0));
}

describe("scope index of another store", () => {
  it("refuses a store that openStore did not make, whose index it cannot read or touch", () => {
    const made = memoryStore();
    // Another implementation of MemoryStore: here a copy of the store's own fields, without its class.
    const wrapped = { ...made } as MemoryStore;
    expect(() => scopeIndex(wrapped, "ana")).toThrow(new Error("retrieval needs a store made by openStore"));
    expect(() => touchSlots(wrapped, "ana", [0], T0)).toThrow(new Error("retrieval needs a store made by openStore"));
    made.close();
  });
});

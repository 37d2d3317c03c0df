import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { renderLine } from "../../../src/memory/escape.js";
import { migrate, SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4 } from "../../../src/memory/store/migrations.js";
import { LEGACY_SCOPE } from "../../../src/memory/store/schema.js";
import { openStore, scopeIndex } from "../../../src/memory/store/store.js";
import { vectorToBlob } from "../../../src/memory/store/schema.js";
import type { TokenCounter } from "../../../src/memory/tokenizer.js";
import { isRecollectError, RecollectError } from "../../../src/shared/errors.js";
import { T0, tempPath, tokenizer } from "../helpers.js";
import { userError } from "../../helpers/user-error.js";

/** A token counter that throws `error` whenever a migration asks it to count. */
const throwingCounter = (error: Error): TokenCounter => ({
  count() {
    throw error;
  },
});

function v1File(wal = false): string {
  const file = tempPath();
  const db = new Database(file);
  if (wal) db.pragma("journal_mode = WAL");
  db.exec(SCHEMA_V1);
  const insert = db.prepare(
    "INSERT INTO memories (id, text, created_at, last_accessed_at, importance, embedding, embedding_model) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  insert.run("m0", "brushed teeth", T0, T0 + 1, 1, vectorToBlob([1, 0, 0]), "old-embedder");
  insert.run("m1", "chose <Groq>", T0 + 2, T0 + 3, 8, null, null);
  db.pragma("user_version = 1");
  db.close();
  return file;
}

function v2File(texts: string[], wal = false): string {
  const file = tempPath();
  const db = new Database(file);
  if (wal) db.pragma("journal_mode = WAL");
  db.exec(SCHEMA_V2);
  const insert = db.prepare(
    "INSERT INTO memories (id, text, created_at, last_accessed_at, importance, source, supersedes) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  texts.forEach((text, i) => insert.run(`m${i}`, text, T0 + i, T0 + i, 5, `turn-${i}`, null));
  insert.run("fix", "Ana lives in Lisbon", T0 + 9, T0 + 9, 6, "turn-9", "m0");
  db.pragma("user_version = 2");
  db.close();
  return file;
}

interface V3Row {
  id: string;
  scope?: string;
  supersedes?: string;
}

/** A v3 file as v3 stores left it (WAL), with one row per entry, in order. */
function v3File(rows: V3Row[]): string {
  const file = tempPath();
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec(SCHEMA_V3);
  const insert = db.prepare(
    `INSERT INTO memories (id, scope, kind, text, created_at, last_accessed_at, importance, tokens, supersedes)
     VALUES (?, ?, 'semantic', ?, ?, ?, 5, 3, ?)`,
  );
  rows.forEach((row, i) => insert.run(row.id, row.scope ?? "ana", `text of ${row.id}`, T0 + i, T0 + i, row.supersedes ?? null));
  db.pragma("user_version = 3");
  db.close();
  return file;
}

/** A v4 file as v4 stores left it (WAL): a correction, and two scopes. */
function v4File(): string {
  const file = tempPath();
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.exec(SCHEMA_V4);
  const insert = db.prepare(
    `INSERT INTO memories (seq, id, scope, kind, text, created_at, last_accessed_at, importance, tokens, supersedes)
     VALUES (?, ?, ?, 'semantic', ?, ?, ?, 5, 3, ?)`,
  );
  insert.run(1, "a", "ana", "Ana lives in Porto", T0, T0, null);
  insert.run(2, "a", "ben", "Ben likes tea", T0 + 1, T0 + 1, null);
  insert.run(3, "fix", "ana", "Ana lives in Lisbon", T0 + 2, T0 + 2, "a");
  db.pragma("user_version = 4");
  db.close();
  return file;
}

function snapshot(file: string): { main: Buffer; wal: number } {
  const wal = `${file}-wal`;
  return { main: readFileSync(file), wal: existsSync(wal) ? statSync(wal).size : 0 };
}

/** The tables and indexes of an SQLite file, by name. */
function schemaNames(file: string): string[] {
  const db = new Database(file);
  const names = db.prepare("SELECT name FROM sqlite_master ORDER BY name").all() as { name: string }[];
  db.close();
  return names.map((row) => row.name);
}

describe("migrations", () => {
  it("takes a v1 file to v5, old rows becoming semantic memories with counted tokens", () => {
    const file = v1File();
    const store = openStore(file, { tokenizer });
    const m0 = store.get(LEGACY_SCOPE, "m0");
    expect(m0).toMatchObject({
      scope: LEGACY_SCOPE,
      kind: "semantic",
      text: "brushed teeth",
      createdAt: T0,
      lastAccessedAt: T0 + 1,
      importance: 1,
      source: null,
      supersedes: null,
      occurredAt: null,
      expiresAt: null,
      embeddingModel: "old-embedder",
      tokens: tokenizer.count(renderLine("brushed teeth")),
    });
    expect(m0?.embedding).toEqual(Float32Array.from([1, 0, 0]));
    expect(store.get(LEGACY_SCOPE, "m1")?.tokens).toBe(tokenizer.count(renderLine("chose <Groq>")));
    store.close();
    const db = new Database(file);
    expect(db.pragma("user_version", { simple: true })).toBe(5);
    db.close();
  });

  it("takes a v2 file to v5, keeping provenance and corrections", () => {
    const file = v2File(["Ana lives in Porto", "Ana likes tea"]);
    const store = openStore(file, { tokenizer });
    expect(store.get(LEGACY_SCOPE, "m1")).toMatchObject({ kind: "semantic", source: "turn-1" });
    expect(store.get(LEGACY_SCOPE, "fix")?.supersedes).toBe("m0");
    expect(store.current(LEGACY_SCOPE, T0 + 10).map((m) => m.id)).toEqual(["m1", "fix"]);
    store.close();
  });

  it("leaves no table of an old version behind: a migrated file has the tables and indexes of a new store", () => {
    const fresh = tempPath();
    openStore(fresh, { tokenizer }).close();
    const migrated = [v1File(), v2File(["Ana lives in Porto"]), v3File([{ id: "a" }]), v4File()];
    for (const file of migrated) openStore(file, { tokenizer }).close();
    expect(migrated.map(schemaNames)).toEqual(migrated.map(() => schemaNames(fresh)));
  });

  it("passes a user error from the token counter through as it is, not as a failed migration", () => {
    const file = v2File(["Ana lives in Porto"]);
    const refusal = new RecollectError("the tokenizer refuses to count");
    const refusing = throwingCounter(refusal);
    expect(userError(() => openStore(file, { tokenizer: refusing }))).toBe(refusal);
  });

  it("checks a file already at the current version without taking the write lock", () => {
    const file = tempPath();
    openStore(file, { tokenizer }).close();
    const writer = new Database(file);
    writer.exec("BEGIN IMMEDIATE");
    const db = new Database(file, { timeout: 0 });
    try {
      expect(() => migrate(db, file, tokenizer)).not.toThrow();
    } finally {
      db.close();
      writer.exec("ROLLBACK");
      writer.close();
    }
  });

  it("names the file and SQLite's reason when the file cannot be read as a database", () => {
    const file = tempPath();
    writeFileSync(file, "not a database, only some text that SQLite cannot read as one\n".repeat(100));
    const before = readFileSync(file);
    const db = new Database(file);
    const error = userError(() => migrate(db, file, tokenizer));
    db.close();
    expect(error.message).toBe(`${file}: cannot be read as an SQLite memory store (file is not a database)`);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("leaves the file byte-for-byte unchanged when the v3 migration fails midway", () => {
    const file = v2File(["Ana lives in Porto", "POISON", "Ana likes tea"], true);
    const before = snapshot(file);
    // The second row's token count throws, after the new table exists and one row was copied.
    const failing: TokenCounter = {
      count(text) {
        if (text.includes("POISON")) throw new Error("tokenizer exploded");
        return tokenizer.count(text);
      },
    };
    let error: unknown;
    try {
      openStore(file, { tokenizer: failing });
    } catch (e) {
      error = e;
    }
    expect(isRecollectError(error)).toBe(true);
    expect((error as Error).message).toMatch(/from schema version 2 to 5 failed .*tokenizer exploded/);
    expect((error as Error).message).toContain(file);
    const after = snapshot(file);
    expect(after.main.equals(before.main)).toBe(true);
    expect(after.wal).toBe(0);
    // And the untouched file still migrates with a working tokenizer.
    const store = openStore(file, { tokenizer });
    expect(store.size()).toBe(4);
    store.close();
  });

  it("rolls the whole chain back when a v1 file fails on its second step", () => {
    const file = v1File();
    const before = snapshot(file);
    const failing = throwingCounter(new Error("no"));
    expect(() => openStore(file, { tokenizer: failing })).toThrow(/version 1 to 5 failed/);
    expect(snapshot(file).main.equals(before.main)).toBe(true);
    const db = new Database(file);
    expect(db.pragma("user_version", { simple: true })).toBe(1);
    db.close();
  });

  it("refuses a file from a newer version without modifying it", () => {
    const file = tempPath();
    const db = new Database(file);
    db.exec("CREATE TABLE memories (id TEXT)");
    db.pragma("user_version = 99");
    db.close();
    const before = snapshot(file);
    const error = userError(() => openStore(file, { tokenizer }));
    expect(error.message).toBe(
      `${file}: memory store has schema version 99, newer than the 5 this version of recollect understands; open it with a newer recollect`,
    );
    expect(snapshot(file)).toEqual(before);
  });

  it("takes a v3 file to v5, keeping every row, its number and its fields", () => {
    const file = v3File([{ id: "a" }, { id: "b", scope: "ben" }, { id: "fix", supersedes: "a" }]);
    const store = openStore(file, { tokenizer });
    expect(store.get("ana", "fix")).toMatchObject({ supersedes: "a", text: "text of fix", tokens: 3, createdAt: T0 + 2 });
    expect(store.current("ana", T0).map((m) => m.id)).toEqual(["fix"]);
    expect(store.current("ben", T0).map((m) => m.id)).toEqual(["b"]);
    store.close();
    const db = new Database(file);
    expect(db.prepare("SELECT seq, id FROM memories ORDER BY seq").all()).toEqual([
      { seq: 1, id: "a" },
      { seq: 2, id: "b" },
      { seq: 3, id: "fix" },
    ]);
    db.close();
  });

  it("takes a v4 file to v5, dropping only the index of rows by scope", () => {
    const file = v4File();
    expect(schemaNames(file)).toContain("memories_scope");
    const store = openStore(file, { tokenizer });
    expect(store.current("ana", T0).map((m) => m.text)).toEqual(["Ana lives in Lisbon"]);
    expect(store.current("ben", T0).map((m) => m.text)).toEqual(["Ben likes tea"]);
    expect(scopeIndex(store, "ana")?.isCurrent(0, T0)).toBe(false);
    store.close();
    expect(schemaNames(file)).not.toContain("memories_scope");
    const db = new Database(file);
    expect(db.pragma("user_version", { simple: true })).toBe(5);
    expect(db.prepare("SELECT seq, scope, id FROM memories ORDER BY seq").all()).toEqual([
      { seq: 1, scope: "ana", id: "a" },
      { seq: 2, scope: "ben", id: "a" },
      { seq: 3, scope: "ana", id: "fix" },
    ]);
    db.close();
  });

  it("after v4, one scope may reuse another's id, and its correction of that id stays in its own scope", () => {
    const store = openStore(v3File([{ id: "a" }]), { tokenizer });
    store.remember({ id: "a", scope: "ben", kind: "semantic", text: "Ben's own a", createdAt: T0 });
    store.remember({ id: "fix", scope: "ben", kind: "semantic", text: "Ben's fix", createdAt: T0, supersedes: "a" });
    expect(store.current("ana", T0).map((m) => m.text)).toEqual(["text of a"]);
    expect(store.current("ben", T0).map((m) => m.text)).toEqual(["Ben's fix"]);
    store.close();
  });

  it("repairs a v3 file where two processes corrected one memory: the later correction corrects the earlier", () => {
    const file = v3File([{ id: "price" }, { id: "100 euros", supersedes: "price" }, { id: "200 euros", supersedes: "price" }]);
    const store = openStore(file, { tokenizer });
    expect(store.get("ana", "200 euros")?.supersedes).toBe("100 euros");
    expect(store.current("ana", T0).map((m) => m.id)).toEqual(["200 euros"]);
    expect(scopeIndex(store, "ana")?.isCurrent(1, T0)).toBe(false);
    store.close();
  });

  it("leaves a v3 file byte-for-byte unchanged when the v4 migration fails midway", () => {
    // "late" and "fix-of-early" both end up correcting "early": the copy into the new table fails.
    const file = v3File([
      { id: "target" },
      { id: "early", supersedes: "target" },
      { id: "fix-of-early", supersedes: "early" },
      { id: "late", supersedes: "target" },
    ]);
    const before = snapshot(file);
    const error = userError(() => openStore(file, { tokenizer }));
    expect(error.message).toMatch(/from schema version 3 to 5 failed .*UNIQUE constraint failed.*the file was left unchanged$/);
    expect(error.message).toContain(file);
    const after = snapshot(file);
    expect(after.main.equals(before.main)).toBe(true);
    expect(after.wal).toBe(before.wal);
    const db = new Database(file);
    expect(db.pragma("user_version", { simple: true })).toBe(3);
    expect(db.prepare("SELECT id, supersedes FROM memories WHERE id = 'late'").get()).toEqual({ id: "late", supersedes: "target" });
    db.close();
  });
});

describe("migrate: refusals and their causes", () => {
  it("refuses a file with tables but no schema version, and adds nothing to it", () => {
    const file = tempPath("other.sqlite");
    const db = new Database(file);
    db.exec("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT);");
    try {
      expect(userError(() => migrate(db, file, tokenizer)).message).toBe(
        `${file}: is an SQLite file but not a recollect memory store (no schema version)`,
      );
      expect(db.prepare("SELECT name FROM sqlite_master").pluck().all()).toEqual(["settings", "sqlite_autoindex_settings_1"]);
      expect(db.pragma("user_version", { simple: true })).toBe(0);
    } finally {
      db.close();
    }
  });

  it("gives what made a migration fail as the cause of its error", () => {
    const file = v2File(["Ana lives in Porto"]);
    const failure = new Error("tokenizer exploded");
    const failing = throwingCounter(failure);
    const db = new Database(file);
    try {
      const error = userError(() => migrate(db, file, failing));
      expect(error.message).toBe(`${file}: migrating the memory store from schema version 2 to 5 failed (tokenizer exploded); the file was left unchanged`);
      expect(error.cause).toBe(failure);
    } finally {
      db.close();
    }
  });

  it("gives SQLite's error as the cause when the file cannot be read as a database", () => {
    const file = tempPath();
    writeFileSync(file, "not a database, only some text that SQLite cannot read as one\n".repeat(100));
    const db = new Database(file);
    try {
      const error = userError(() => migrate(db, file, tokenizer));
      expect(error.cause).toBeInstanceOf(Database.SqliteError);
      expect((error.cause as { code: string }).code).toBe("SQLITE_NOTADB");
    } finally {
      db.close();
    }
  });
});

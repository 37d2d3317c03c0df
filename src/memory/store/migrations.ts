/**
 * Schema history. A store file records its version in `PRAGMA user_version`:
 *
 * - v1: a plain memory stream — text, created, last access, importance, and an embedding with
 *   the id of the model that made it.
 * - v2: adds provenance (`source`) and corrections (`supersedes`).
 * - v3: adds kinds, occurredAt, expiry, scope and token counts; earlier rows become `semantic`
 *   in LEGACY_SCOPE, and their line costs are counted during the migration.
 * - v4: ids are unique per scope instead of globally, and SQLite itself allows one correction per
 *   memory. A v3 file could hold two corrections of one memory (two processes each checked only
 *   their own view); the earlier keeps correcting it, and each later one becomes the correction
 *   of the one before, so the newest is what reads as current, as the latest write would be.
 * - v5: drops the index on (scope, seq): it served only the listing of a scope's current
 *   memories, and cost every insert a write.
 *
 * Steps copy rows with one INSERT … SELECT, so SQLite streams them; none is held in memory. Line
 * costs are counted by a function registered on the connection for the copy.
 *
 * The old schemas are declared here so tests can build old files with exactly the DDL the code
 * migrates from.
 */
import type Database from "better-sqlite3";
import { fileError, RecollectError } from "../../shared/errors.js";
import { renderLine } from "../escape.js";
import type { TokenCounter } from "../tokenizer.js";
import { LEGACY_SCOPE, SCHEMA_V5, SCHEMA_VERSION } from "./schema.js";

export const SCHEMA_V1 = `
CREATE TABLE memories (
  id TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  created_at REAL NOT NULL,
  last_accessed_at REAL NOT NULL,
  importance REAL NOT NULL,
  embedding BLOB,
  embedding_model TEXT
);
`;

export const SCHEMA_V2 = `
CREATE TABLE memories (
  id TEXT PRIMARY KEY,
  text TEXT NOT NULL,
  created_at REAL NOT NULL,
  last_accessed_at REAL NOT NULL,
  importance REAL NOT NULL,
  embedding BLOB,
  embedding_model TEXT,
  source TEXT,
  supersedes TEXT
);
`;

export const SCHEMA_V3 = `
CREATE TABLE memories (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  scope TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('working', 'semantic', 'episodic', 'procedural')),
  text TEXT NOT NULL,
  created_at REAL NOT NULL,
  occurred_at REAL,
  last_accessed_at REAL NOT NULL,
  importance REAL NOT NULL,
  tokens INTEGER NOT NULL CHECK (tokens >= 0),
  supersedes TEXT,
  expires_at REAL,
  source TEXT,
  embedding BLOB,
  embedding_model TEXT
);
CREATE INDEX memories_scope ON memories (scope, seq);
CREATE INDEX memories_supersedes ON memories (supersedes);
`;

export const SCHEMA_V4 = `
CREATE TABLE memories (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  scope TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('working', 'semantic', 'episodic', 'procedural')),
  text TEXT NOT NULL,
  created_at REAL NOT NULL,
  occurred_at REAL,
  last_accessed_at REAL NOT NULL,
  importance REAL NOT NULL,
  tokens INTEGER NOT NULL CHECK (tokens >= 0),
  supersedes TEXT,
  expires_at REAL,
  source TEXT,
  embedding BLOB,
  embedding_model TEXT,
  UNIQUE (scope, id)
);
CREATE INDEX memories_scope ON memories (scope, seq);
CREATE UNIQUE INDEX memories_correction ON memories (scope, supersedes) WHERE supersedes IS NOT NULL;
`;

/** The SQL function that prices a migrated row's line, as the store prices a new memory's. */
const LINE_TOKENS = "recollect_line_tokens";

type Migration = (db: Database.Database, counter: TokenCounter) => void;

/** MIGRATIONS[v] takes a file from version v to v + 1. */
const MIGRATIONS: Readonly<Record<number, Migration>> = {
  1: (db) => {
    db.exec(`
      ALTER TABLE memories ADD COLUMN source TEXT;
      ALTER TABLE memories ADD COLUMN supersedes TEXT;
    `);
  },
  2: (db, counter) => {
    db.exec("ALTER TABLE memories RENAME TO memories_v2;");
    db.exec(SCHEMA_V3);
    db.function(LINE_TOKENS, (text) => counter.count(renderLine(String(text))));
    db.prepare(
      `INSERT INTO memories (id, scope, kind, text, created_at, occurred_at, last_accessed_at,
         importance, tokens, supersedes, expires_at, source, embedding, embedding_model)
       SELECT id, ?, 'semantic', text, created_at, NULL, last_accessed_at,
         importance, ${LINE_TOKENS}(text), supersedes, NULL, source, embedding, embedding_model
       FROM memories_v2 ORDER BY rowid`,
    ).run(LEGACY_SCOPE);
    db.exec("DROP TABLE memories_v2;");
  },
  3: (db) => {
    db.exec(`
      DROP INDEX memories_scope;
      DROP INDEX memories_supersedes;
      ALTER TABLE memories RENAME TO memories_v3;
      WITH repeated AS (
        SELECT seq, lag(id) OVER (PARTITION BY scope, supersedes ORDER BY seq) AS previous
        FROM memories_v3 WHERE supersedes IS NOT NULL
      )
      UPDATE memories_v3 SET supersedes = (SELECT previous FROM repeated WHERE repeated.seq = memories_v3.seq)
      WHERE seq IN (SELECT seq FROM repeated WHERE previous IS NOT NULL);
    `);
    db.exec(SCHEMA_V4);
    db.exec(`
      INSERT INTO memories (seq, id, scope, kind, text, created_at, occurred_at, last_accessed_at,
        importance, tokens, supersedes, expires_at, source, embedding, embedding_model)
      SELECT seq, id, scope, kind, text, created_at, occurred_at, last_accessed_at,
        importance, tokens, supersedes, expires_at, source, embedding, embedding_model
      FROM memories_v3 ORDER BY seq;
      DROP TABLE memories_v3;
    `);
  },
  4: (db) => {
    db.exec("DROP INDEX memories_scope;");
  },
};

/**
 * Brings `db` to SCHEMA_VERSION. Each migration is its own transaction (a savepoint), and the
 * chain runs inside one outer transaction, so a failure anywhere leaves the file as it was.
 * Must run before the file is switched to WAL, so a refused file is not touched at all.
 */
export function migrate(db: Database.Database, file: string, counter: TokenCounter): void {
  const version = readVersion(db, file);
  if (version === SCHEMA_VERSION) return;
  refuseNewer(file, version);
  // Under the write lock, reading the version again: another process opening the same old (or
  // new) file may have brought it up to date meanwhile, and must not be followed by a second run.
  db.transaction(() => upgrade(db, file, counter)).immediate();
}

function upgrade(db: Database.Database, file: string, counter: TokenCounter): void {
  const version = readVersion(db, file);
  if (version === SCHEMA_VERSION) return;
  refuseNewer(file, version);
  if (version === 0) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number };
    if (tables.n > 0) {
      throw fileError(file, "is an SQLite file but not a recollect memory store (no schema version)");
    }
    db.exec(SCHEMA_V5);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    return;
  }
  try {
    for (let v = version; v < SCHEMA_VERSION; v++) {
      db.transaction(() => {
        MIGRATIONS[v](db, counter);
        db.pragma(`user_version = ${v + 1}`);
      })();
    }
  } catch (error) {
    if (error instanceof RecollectError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw fileError(
      file,
      `migrating the memory store from schema version ${version} to ${SCHEMA_VERSION} failed (${reason}); the file was left unchanged`,
      { cause: error },
    );
  }
}

export function refuseNewer(file: string, version: number): void {
  if (version <= SCHEMA_VERSION) return;
  throw fileError(
    file,
    `memory store has schema version ${version}, newer than the ${SCHEMA_VERSION} this ` +
      "version of recollect understands; open it with a newer recollect",
  );
}

function readVersion(db: Database.Database, file: string): number {
  try {
    return db.pragma("user_version", { simple: true }) as number;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw fileError(file, `cannot be read as an SQLite memory store (${reason})`, { cause: error });
  }
}

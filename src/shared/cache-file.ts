/**
 * Opening a persistent, content-addressed cache file: one SQLite file (WAL mode) that runs,
 * threads and processes share, refused with one message naming it when it is not such a cache,
 * is damaged, or comes from a newer version. The embedding cache and the token-count cache are
 * both built on it; each keeps its own tables and checks its own rows.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { FileError, fileError } from "./errors.js";
import { firstDamage } from "./quick-check.js";

export interface CacheFileKind {
  /** What the file is, as messages name it: "an embedding cache". */
  what: string;
  /** The schema version this code reads and writes (PRAGMA user_version). */
  version: number;
  /** Statements that make the tables of a new file. */
  schema: string;
  /** What to do about a file of something else at this path: "name another cache file (--embedding-cache)". */
  elsewhere: string;
}

/** How long a process waits for another's lock on the file. */
export const BUSY_TIMEOUT_MS = 30_000;

/** Opens (creating it and its folders when absent) the cache file `file` of `kind`, or refuses it. */
export function openCacheFile(file: string, kind: CacheFileKind): Database.Database {
  const refuse = (why: string, options?: ErrorOptions) => fileError(file, `${why}; delete it, and the next run rebuilds it`, options);
  let db: Database.Database;
  try {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  } catch (error) {
    throw refuse(`cannot be opened as ${kind.what} (${(error as Error).message})`, { cause: error });
  }
  try {
    // The version is read and a new file's schema made in one write transaction, so processes
    // opening a new file at once never see each other's half-made cache; a refused file is
    // left as it was (WAL mode, which changes the file's header, is set only once it is trusted).
    db.transaction(() => {
      const version = db.pragma("user_version", { simple: true }) as number;
      if (version > kind.version) {
        throw fileError(file, `is ${kind.what} of a newer recollect (version ${version}; this one reads ${kind.version}): update recollect, or name another cache file`);
      }
      if (version === 0) {
        const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema").get() as { n: number };
        if (tables.n > 0) throw fileError(file, `is an SQLite file of something else, not ${kind.what}: ${kind.elsewhere}`);
        db.exec(kind.schema);
        db.pragma(`user_version = ${kind.version}`);
      }
    }).immediate();
    const damage = firstDamage(db);
    if (damage !== undefined) throw refuse(`is damaged (SQLite's quick_check: ${damage})`);
    enableWal(db);
  } catch (error) {
    if (db.open) db.close();
    if (error instanceof FileError) throw error;
    if ((error as { code?: string }).code === "SQLITE_BUSY") {
      throw fileError(file, `is locked by another process, which held it longer than ${BUSY_TIMEOUT_MS / 1000} s: try again once it is done`, { cause: error });
    }
    throw refuse(`is damaged or not ${kind.what} (${(error as Error).message})`, { cause: error });
  }
  return db;
}

/** The key a text is stored under: its sha256. */
export function textHash(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Eight bytes of sha256 over a row's parts, stored beside it so that a damaged row shows. */
export function rowChecksum(...parts: (string | Buffer)[]): Buffer {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest().subarray(0, 8);
}

/**
 * Switches a file to WAL mode. SQLite refuses the switch at once (SQLITE_BUSY, without waiting)
 * while another process has the file open in its old mode, as when runs open a new cache together,
 * so the switch is retried until the file is in WAL mode, for as long as a lock is waited for.
 */
function enableWal(db: Database.Database): void {
  const started = Date.now();
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() - started > BUSY_TIMEOUT_MS) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

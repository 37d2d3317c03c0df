/**
 * Whether an existing file is a recollect memory store, found out without changing it. openStore
 * asks this before it opens a file read-write: switching a file to WAL, or migrating it, is a write,
 * and a file that is not ours (another program's database, a damaged store) must be left exactly
 * as it was, with nothing new beside it.
 *
 * The file is opened read-only and checked in three steps: its schema version, its tables and
 * indexes against those that version's DDL makes, and SQLite's `quick_check`. quick_check rather
 * than integrity_check: it reads every page once (linear in the file's size) and finds what damage
 * to pages does (a torn write, a bad block, bytes overwritten), while integrity_check also matches
 * every index against its table, O(N log N), which would be paid on every start of a chat for a
 * kind of damage only a program writing past SQLite makes.
 */
import { existsSync, lstatSync, rmSync, statfsSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { type FileError, fileError } from "../../shared/errors.js";
import { firstDamage } from "../../shared/quick-check.js";
import { refuseNewer, SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4 } from "./migrations.js";
import { SCHEMA_V5 } from "./schema.js";

/** The DDL each schema version's file was made with (migrated files end up with the same tables). */
const SCHEMA_OF_VERSION: Readonly<Record<number, string>> = { 1: SCHEMA_V1, 2: SCHEMA_V2, 3: SCHEMA_V3, 4: SCHEMA_V4, 5: SCHEMA_V5 };

/** What SQLite may create beside a database: its rollback journal, its write-ahead log and the log's index. */
const SIBLINGS = ["-journal", "-wal", "-shm"] as const;

/**
 * Throws a FileError naming `file` unless it is a recollect store this version can open (an older
 * one, which openStore migrates, included), or an SQLite file with nothing in it yet. `file` must
 * exist and be a regular file. The file is left byte-identical, and whatever SQLite created beside
 * it to read it is removed again when the file is refused.
 */
export function identifyStore(file: string): void {
  const before = SIBLINGS.filter((suffix) => existsSync(file + suffix));
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    check(db, file);
  } catch (error) {
    db?.close();
    db = undefined;
    removeCreated(file, before);
    throw identifyError(file, error);
  } finally {
    db?.close();
  }
}

function check(db: Database.Database, file: string): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  refuseNewer(file, version);
  const objects = shapeOf(db);
  if (version === 0) {
    if (objects.length > 0) throw fileError(file, "is an SQLite file but not a recollect memory store (no schema version)");
  } else {
    const expected = SCHEMA_OF_VERSION[version];
    if (expected === undefined || !sameShape(objects, expectedShape(expected))) {
      throw fileError(
        file,
        `is an SQLite file but not a recollect memory store (its schema version is ${version}, but its tables are not a version-${version} store's); it was left unchanged`,
      );
    }
  }
  const found = firstDamage(db);
  if (found !== undefined) {
    throw fileError(file, `is a damaged memory store (SQLite's quick_check: ${found}); it was left unchanged: restore it from a copy`);
  }
}

/**
 * The schema's tables (with their columns in order) and indexes, as one line each, sorted. SQLite's
 * own objects (sqlite_…: automatic indexes, statistics) are left out: they follow from the rest.
 */
function shapeOf(db: Database.Database): string[] {
  const objects = db
    .prepare("SELECT type, name, tbl_name AS tableName FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name")
    .all() as { type: string; name: string; tableName: string }[];
  const columns = db.prepare("SELECT name FROM pragma_table_info(?)").pluck();
  return objects.map((o) => (o.type === "table" ? `table ${o.name} (${(columns.all(o.name) as string[]).join(", ")})` : `${o.type} ${o.name} on ${o.tableName}`));
}

function expectedShape(ddl: string): string[] {
  const db = new Database(":memory:");
  try {
    db.exec(ddl);
    return shapeOf(db);
  } finally {
    db.close();
  }
}

function sameShape(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/**
 * A read-only open of a file in WAL mode creates its -wal and -shm files when they are missing,
 * and leaves them behind. Those of them we created are removed, but only while the log is still
 * empty: a log with frames in it was written by another program that opened the file meanwhile,
 * and is then its own.
 */
function removeCreated(file: string, before: readonly string[]): void {
  const created = SIBLINGS.filter((suffix) => !before.includes(suffix) && existsSync(file + suffix));
  if (created.includes("-wal") && lstatSync(`${file}-wal`).size > 0) return;
  for (const suffix of created) rmSync(file + suffix, { force: true });
}

/** One message naming the file for whatever SQLite said while reading it. */
function identifyError(file: string, error: unknown): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  const full = noSpaceError(file, error);
  if (full !== undefined) return full;
  if (error.code === "SQLITE_NOTADB") return fileError(file, `cannot be read as an SQLite memory store (${error.message})`, { cause: error });
  if (error.code.startsWith("SQLITE_CORRUPT")) {
    return fileError(file, `is a damaged memory store (${error.message}); it was left unchanged: restore it from a copy`, { cause: error });
  }
  return fileError(file, `cannot be read as a memory store (${error.message})`, { cause: error });
}

/**
 * The message for SQLite's failure to write, or to make its -shm file, on a disk with no room
 * left; undefined for any other error. SQLite reports a full disk as SQLITE_FULL when a page does
 * not fit, but as a plain I/O error when its shared-memory file cannot grow, so the file system is
 * asked whether it is out of room.
 */
export function noSpaceError(file: string, error: InstanceType<typeof Database.SqliteError>): FileError | undefined {
  if (error.code !== "SQLITE_FULL" && !error.code.startsWith("SQLITE_IOERR")) return undefined;
  if (error.code !== "SQLITE_FULL" && !outOfRoom(file)) return undefined;
  return fileError(file, "cannot be written (no space left on the device)", { cause: error });
}

function outOfRoom(file: string): boolean {
  try {
    const { bavail, bsize } = statfsSync(dirname(file));
    // Less room than one of SQLite's 32 KiB shared-memory regions.
    return bavail * bsize < 32 * 1024;
  } catch {
    return false;
  }
}

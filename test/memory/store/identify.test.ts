import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identifyStore, noSpaceError } from "../../../src/memory/store/identify.js";
import { openStore } from "../../../src/memory/store/store.js";
import { FileError } from "../../../src/shared/errors.js";
import { damagePages } from "../../helpers/damage-pages.js";
import { userError } from "../../helpers/user-error.js";
import { useTempDir } from "../../harness/temp-files.js";
import { T0, tempPath, tokenizer } from "../helpers.js";

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
/** The files in the folder of `file`: the file itself and anything SQLite left beside it. */
const beside = (file: string) => readdirSync(dirname(file)).sort();

/** A database another program made, with the schema version recollect writes too. */
function otherProgramsFile(journalMode: "delete" | "wal"): string {
  const file = tempPath("other.sqlite");
  const db = new Database(file);
  db.pragma(`journal_mode = ${journalMode}`);
  db.exec("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT); INSERT INTO settings VALUES ('theme', 'dark');");
  db.pragma("user_version = 5");
  db.close();
  return file;
}

/** A recollect store in rollback-journal mode, large enough that page 11 is one of its b-tree pages. */
function storeOfPages(): string {
  const file = tempPath();
  const store = openStore(file, { tokenizer });
  store.rememberMany(Array.from({ length: 300 }, (_, i) => ({ scope: "ana", kind: "semantic" as const, text: `fact ${i} ${"x".repeat(200)}`, createdAt: T0 })));
  store.close();
  const db = new Database(file);
  db.pragma("journal_mode = DELETE");
  db.close();
  return file;
}

describe("identifying a store before writing to it", () => {
  it("refuses another program's database that carries recollect's schema version, and leaves it byte-identical with nothing beside it", () => {
    for (const mode of ["delete", "wal"] as const) {
      const file = otherProgramsFile(mode);
      const before = sha256(file);
      const error = userError(() => openStore(file, { tokenizer }));
      expect(error.message).toBe(
        `${file}: is an SQLite file but not a recollect memory store (its schema version is 5, but its tables are not a version-5 store's); it was left unchanged`,
      );
      expect(sha256(file), mode).toBe(before);
      expect(beside(file), mode).toEqual(["other.sqlite"]);
      // Still the other program's, in its own journal mode.
      const db = new Database(file, { readonly: true });
      expect(db.pragma("journal_mode", { simple: true })).toBe(mode);
      db.close();
    }
  });

  it("leaves the -wal and -shm files another program has open beside its database", () => {
    const file = otherProgramsFile("wal");
    const owner = new Database(file);
    owner.prepare("INSERT INTO settings VALUES ('font', 'mono')").run();
    try {
      expect(() => identifyStore(file)).toThrow(/not a recollect memory store/);
      expect(beside(file)).toEqual(["other.sqlite", "other.sqlite-shm", "other.sqlite-wal"]);
      expect(owner.prepare("SELECT count(*) FROM settings").pluck().get()).toBe(2);
    } finally {
      owner.close();
    }
  });

  it("refuses a store with damaged pages, naming what SQLite's quick_check found, and leaves it byte-identical with nothing beside it", () => {
    const file = storeOfPages();
    damagePages(file, [3, 7, 11]);
    const before = sha256(file);
    const error = userError(() => openStore(file, { tokenizer }));
    expect(error).toBeInstanceOf(FileError);
    expect(error.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: is a damaged memory store \\(.+\\); it was left unchanged: restore it from a copy$`));
    expect(sha256(file)).toBe(before);
    expect(beside(file)).toEqual(["memory.sqlite"]);
  });

  it("refuses a store whose first page is damaged, where SQLite cannot even read the schema, in one line", () => {
    const file = storeOfPages();
    // Past the 100-byte header, so the file still reads as SQLite: its schema table's page is broken.
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.alloc(3000, 0xab), 0, 3000, 100);
    closeSync(fd);
    const before = sha256(file);
    const error = userError(() => openStore(file, { tokenizer }));
    expect(error.message).toMatch(/: is a damaged memory store \(.+\); it was left unchanged: restore it from a copy$/);
    expect(error.message).not.toContain("\n");
    expect(sha256(file)).toBe(before);
    expect(beside(file)).toEqual(["memory.sqlite"]);
  });

  it("accepts a store closed in WAL mode, and an SQLite file that holds nothing yet, which becomes a store", () => {
    const file = tempPath();
    openStore(file, { tokenizer }).close();
    expect(() => identifyStore(file)).not.toThrow();
    const blank = tempPath("blank.sqlite");
    const db = new Database(blank);
    db.pragma("page_size = 4096");
    db.exec("VACUUM");
    db.close();
    expect(() => identifyStore(blank)).not.toThrow();
    const store = openStore(blank, { tokenizer });
    expect(store.remember({ scope: "ana", kind: "semantic", text: "Ana likes tea.", createdAt: T0 }).id).toBe("ana#1");
    store.close();
  });

  it("refuses a file whose tables are a store's of another version than the one it records", () => {
    const file = tempPath();
    openStore(file, { tokenizer }).close();
    const db = new Database(file);
    db.pragma("user_version = 2");
    db.close();
    expect(userError(() => openStore(file, { tokenizer })).message).toBe(
      `${file}: is an SQLite file but not a recollect memory store (its schema version is 2, but its tables are not a version-2 store's); it was left unchanged`,
    );
  });
});

/**
 * A real full disk: a small tmpfs, which needs root and a kernel that lets us mount one; elsewhere
 * this is skipped. better-sqlite3 offers no seam to inject a failing write, so there is no
 * injected-failure twin of this test.
 */
describe("a store on a full disk", () => {
  const disk = useTempDir("recollect-full-store-");
  let skip: string | undefined;
  let mounted = false;

  beforeAll(() => {
    if (process.getuid?.() !== 0) return void (skip = "mounting a small tmpfs needs root");
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", disk.dir], { stdio: "pipe" });
      mounted = true;
    } catch (error) {
      skip = `mount -t tmpfs failed here (${String((error as Error).message).split("\n")[0]})`;
    }
  });
  afterAll(() => {
    if (mounted) execFileSync("umount", [disk.dir]);
  });

  /** Fills what room is left with one file, which the caller removes. */
  const fill = () => {
    const filler = join(disk.dir, "filler");
    try {
      writeFileSync(filler, Buffer.alloc(1024 * 1024));
    } catch {
      // ENOSPC: the file holds as much as fitted, which is the point.
    }
    return filler;
  };

  it("refuses to create a store in one line naming the file, and leaves no half-made file", (context) => {
    if (skip !== undefined) return context.skip(skip);
    const filler = fill();
    try {
      const file = join(disk.dir, "new.sqlite");
      expect(userError(() => openStore(file, { tokenizer })).message).toBe(`${file}: cannot be written (no space left on the device)`);
      expect(readdirSync(disk.dir)).toEqual(["filler"]);
    } finally {
      rmSync(filler);
    }
  });

  it("refuses to open an existing store in one line naming the file, and leaves it byte-identical with nothing beside it", (context) => {
    if (skip !== undefined) return context.skip(skip);
    const folder = join(disk.dir, "kept");
    mkdirSync(folder);
    const file = join(folder, "memory.sqlite");
    openStore(file, { tokenizer }).close();
    const before = sha256(file);
    const filler = fill();
    try {
      expect(userError(() => openStore(file, { tokenizer })).message).toBe(`${file}: cannot be written (no space left on the device)`);
      expect(sha256(file)).toBe(before);
      expect(readdirSync(folder)).toEqual(["memory.sqlite"]);
    } finally {
      rmSync(filler);
      rmSync(folder, { recursive: true });
    }
  });
});

/** A store of this version made at `file`, then changed by `tamper` with a plain SQLite connection. */
function tamperedStore(tamper: string): string {
  const file = tempPath();
  openStore(file, { tokenizer }).close();
  const db = new Database(file);
  db.exec(tamper);
  db.close();
  return file;
}

describe("identifying a store: what it compares", () => {
  const notAStore = (file: string) =>
    `${file}: is an SQLite file but not a recollect memory store (its schema version is 5, but its tables are not a version-5 store's); it was left unchanged`;

  it("refuses a file that records the current version but holds no tables", () => {
    const file = tempPath();
    const db = new Database(file);
    db.pragma("user_version = 5");
    db.close();
    expect(userError(() => identifyStore(file)).message).toBe(notAStore(file));
  });

  it("refuses a store whose index has another name, though it has as many objects as a store", () => {
    const file = tamperedStore(
      "DROP INDEX memories_correction; CREATE UNIQUE INDEX memories_fix ON memories (scope, supersedes) WHERE supersedes IS NOT NULL;",
    );
    expect(userError(() => identifyStore(file)).message).toBe(notAStore(file));
  });

  it("refuses a store whose table has a column more", () => {
    const file = tamperedStore("ALTER TABLE memories ADD COLUMN mood TEXT;");
    expect(userError(() => identifyStore(file)).message).toBe(notAStore(file));
  });

  it("compares columns one by one: two renamed so that their names run together the same are told apart", () => {
    // seq, id, scope… becomes seq, ids, cope…: "seqidscope" either way.
    const file = tamperedStore("ALTER TABLE memories RENAME COLUMN id TO ids; ALTER TABLE memories RENAME COLUMN scope TO cope;");
    expect(userError(() => identifyStore(file)).message).toBe(notAStore(file));
  });

  it("refuses an SQLite file with tables but no schema version", () => {
    const file = tempPath("other.sqlite");
    const db = new Database(file);
    db.exec("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT);");
    db.close();
    expect(userError(() => identifyStore(file)).message).toBe(
      `${file}: is an SQLite file but not a recollect memory store (no schema version)`,
    );
  });

  it("refuses a file whose schema version is one no recollect ever wrote", () => {
    const file = tempPath();
    const db = new Database(file);
    db.exec("CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT);");
    db.pragma("user_version = -1");
    db.close();
    expect(userError(() => identifyStore(file)).message).toBe(
      `${file}: is an SQLite file but not a recollect memory store (its schema version is -1, but its tables are not a version--1 store's); it was left unchanged`,
    );
  });
});

describe("identifying a store: reading without writing", () => {
  it("reads a store whose log was never checkpointed without merging the log into the file", () => {
    const source = tempPath();
    openStore(source, { tokenizer }).close();
    // A writer that stopped before checkpointing: its file and log, copied while it still had them open.
    const writer = new Database(source);
    writer.pragma("wal_autocheckpoint = 0");
    writer.prepare("INSERT INTO memories (id, scope, kind, text, created_at, last_accessed_at, importance, tokens) VALUES ('m', 'ana', 'semantic', 'Tea.', 0, 0, 5, 2)").run();
    const file = tempPath();
    copyFileSync(source, file);
    copyFileSync(`${source}-wal`, `${file}-wal`);
    writer.close();
    const before = sha256(file);
    identifyStore(file);
    expect(sha256(file)).toBe(before);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(0);
  });

  it("closes the file once it is accepted: another connection may then take it over alone", () => {
    const file = tempPath();
    openStore(file, { tokenizer }).close();
    identifyStore(file);
    const db = new Database(file, { timeout: 0 });
    try {
      // Leaving WAL needs every other connection to the file closed.
      expect(db.pragma("journal_mode = DELETE", { simple: true })).toBe("delete");
    } finally {
      db.close();
    }
  });

  it("keeps the files that were beside a refused file before it was read", () => {
    const file = otherProgramsFile("delete");
    writeFileSync(`${file}-journal`, "");
    expect(() => identifyStore(file)).toThrow(/not a recollect memory store/);
    expect(beside(file)).toEqual(["other.sqlite", "other.sqlite-journal"]);
  });
});

describe("identifying a store: what SQLite said", () => {
  it("names a file that cannot be opened, with SQLite's error as the cause", () => {
    const file = tempPath("missing.sqlite");
    const error = userError(() => identifyStore(file));
    expect(error.message).toBe(`${file}: cannot be read as a memory store (unable to open database file)`);
    expect((error.cause as { code?: string }).code).toBe("SQLITE_CANTOPEN");
    expect(beside(file)).toEqual([]);
  });

  it("names a file that is not SQLite's, with SQLite's error as the cause", () => {
    const file = tempPath("notes.txt");
    writeFileSync(file, "Ana drinks tea, a note that SQLite cannot read as a database.\n".repeat(100));
    const error = userError(() => identifyStore(file));
    expect(error.message).toBe(`${file}: cannot be read as an SQLite memory store (file is not a database)`);
    expect((error.cause as { code?: string }).code).toBe("SQLITE_NOTADB");
  });

  it("gives SQLite's error as the cause of refusing a store whose schema cannot be read", () => {
    const file = storeOfPages();
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.alloc(3000, 0xab), 0, 3000, 100);
    closeSync(fd);
    const error = userError(() => identifyStore(file));
    expect(error.cause).toBeInstanceOf(Database.SqliteError);
    expect((error.cause as { code: string }).code).toMatch(/^SQLITE_CORRUPT/);
  });
});

describe("identifying a store: what quick_check found", () => {
  it("names the problem quick_check found first, without its line naming the schema", () => {
    const file = storeOfPages();
    damagePages(file, [3, 7, 11]);
    expect(userError(() => identifyStore(file)).message).toBe(
      `${file}: is a damaged memory store (SQLite's quick_check: Tree 2 page 11: btreeInitPage() returns error code 11); it was left unchanged: restore it from a copy`,
    );
  });
});

describe("noSpaceError", () => {
  const sqliteError = (code: string) => new Database.SqliteError(`failed with ${code}`, code);
  // /proc has no room at all: its file system says no block is free.
  const onFullDisk = "/proc/memory.sqlite";

  it("reads a full database as no space left, wherever the file is", () => {
    const file = tempPath();
    const cause = sqliteError("SQLITE_FULL");
    const error = noSpaceError(file, cause);
    expect(error?.message).toBe(`${file}: cannot be written (no space left on the device)`);
    expect(error?.cause).toBe(cause);
  });

  it("reads an I/O error as no space left only on a disk with no room", () => {
    const error = noSpaceError(onFullDisk, sqliteError("SQLITE_IOERR_SHMSIZE"));
    expect(error?.message).toBe(`${onFullDisk}: cannot be written (no space left on the device)`);
    expect(noSpaceError(tempPath(), sqliteError("SQLITE_IOERR_SHMSIZE"))).toBeUndefined();
  });

  it("reads an I/O error as something else where the file's folder cannot be asked for its room", () => {
    expect(noSpaceError(join(tempPath("gone"), "memory.sqlite"), sqliteError("SQLITE_IOERR_WRITE"))).toBeUndefined();
  });

  it("leaves any other error alone, even on a disk with no room", () => {
    expect(noSpaceError(onFullDisk, sqliteError("SQLITE_BUSY"))).toBeUndefined();
  });
});

/**
 * The memory store: SQLite (better-sqlite3, WAL) is the durable truth, and a per-scope
 * in-memory index mirrors it so retrieval never re-reads rows. Every write goes to SQLite first
 * and reaches the index only after it committed.
 *
 * Several processes may write one file. Each write holds SQLite's write lock from its start
 * (BEGIN IMMEDIATE) and first loads the rows other processes committed since this one last
 * looked, so the checks it makes (an id taken, a memory already corrected) and the default ids it
 * gives see every row in the file. SQLite's unique indexes back those checks up.
 */
import { randomUUID } from "node:crypto";
import { accessSync, closeSync, constants, linkSync, openSync, readSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { fileError, type RecollectError, userError } from "../../shared/errors.js";
import { renderLine } from "../escape.js";
import type { TokenCounter } from "../tokenizer.js";
import { DEFAULT_IMPORTANCE, KINDS, type Memory, type NewMemory } from "../types.js";
import { Prefaulter } from "../vector/prefault.js";
import type { VectorChunk } from "../vector/vector-column.js";
import { ScopeIndex } from "./index-columns.js";
import { SeqSlots } from "./seq-slots.js";
import { identifyStore, noSpaceError } from "./identify.js";
import { migrate } from "./migrations.js";
import { COLUMNS_PER_ROW, MEMORY_COLUMNS, type MemoryRow, pushRow, rowToMemory, SCHEMA_VERSION } from "./schema.js";

export interface OpenStoreOptions {
  /** Prices each memory's line once, at write time (and old rows during migration). */
  tokenizer: TokenCounter;
}

export interface MemoryStore {
  readonly file: string;
  /** Writes one memory; a `supersedes` id makes it a correction. */
  remember(memory: NewMemory): Memory;
  /** Writes many memories in one transaction: all or none. */
  rememberMany(memories: readonly NewMemory[]): Memory[];
  /** Writes `memory` as the correction of `oldId`, a memory of its scope, which stops being current. */
  correct(oldId: string, memory: NewMemory): Memory;
  /** Any stored memory of the scope, current or not. Ids are unique within a scope. */
  get(scope: string, id: string): Memory | undefined;
  /** The scope's memories that are neither corrected nor expired at `now`, in insertion order. */
  current(scope: string, now: number): Memory[];
  /** Sets lastAccessedAt = now on the scope's memories `ids`, in one transaction. */
  touch(scope: string, ids: readonly string[], now: number): void;
  /** Stored memories (current or not), in one scope or in all. */
  size(scope?: string): number;
  scopes(): string[];
  /**
   * The scope's embeddings as retrieval reads them, or undefined when it has none. For measuring
   * a pass over them against retrieval (see the bench's floor), not for changing them: the view
   * is read-only by contract and valid until the next write to the store.
   */
  embeddings(scope: string): StoredEmbeddings | undefined;
  close(): void;
}

/** A scope's embedding column, as MemoryStore.embeddings lends it. */
export interface StoredEmbeddings {
  /** Dimensions of every vector of the scope. */
  readonly dim: number;
  /**
   * The vectors of the scope's memories in slot order, chunk after chunk, as retrieval reads
   * them: each chunk's vectors (slot × dim) and the WebAssembly memory that holds them when the
   * SIMD kernel reads the column, or null when plain JavaScript does.
   */
  readonly chunks: readonly VectorChunk[];
}

/**
 * The scope's in-memory index, which retrieval reads instead of SQLite; undefined when the scope
 * holds nothing. Inside memory/ only: MemoryStore hands it to no one.
 */
export function scopeIndex(store: MemoryStore, scope: string): ScopeIndex | undefined {
  return madeByOpenStore(store).indexOf(scope);
}

/**
 * Touches memories of `scope` by their slots in its index, as `touch` does by id: retrieval knows
 * the slots of what it kept, so it need not look each id up again. Inside memory/ only.
 */
export function touchSlots(store: MemoryStore, scope: string, slots: readonly number[], now: number): void {
  madeByOpenStore(store).touchSlots(scope, slots, now);
}

/** Retrieval reads and touches the index of a store this module made, not of any MemoryStore. */
function madeByOpenStore(store: MemoryStore): SqliteMemoryStore {
  if (!(store instanceof SqliteMemoryStore)) throw new Error("retrieval needs a store made by openStore");
  return store;
}

/**
 * Opens (or creates) a store. A path that exists must be an SQLite memory store this version can
 * write: a directory, a device such as /dev/null, an empty file, a text file, another program's
 * database, a damaged store, a newer store or a read-only one is refused with one message naming
 * the file, and left byte-identical with nothing new beside it. An empty file is refused rather
 * than made into a store, because it is more likely a mistake (a wrong path, a truncated copy)
 * than a wish; a store is created at a path that does not exist yet (see createStore), and
 * nothing is left of it when the disk has no room to create it.
 */
export function openStore(file: string, options: OpenStoreOptions): MemoryStore {
  let existed = refuseNonStore(file);
  if (!existed && file !== ":memory:" && file !== "") {
    createStore(file, options.tokenizer);
    existed = true;
  }
  // Read-only first: switching the journal mode or migrating writes to the file.
  if (existed) identifyStore(file);
  const db = openConnection(file, options.tokenizer, existed);
  return new SqliteMemoryStore(db, prepareStatements(db), file, options.tokenizer, () => db.close());
}

/** SQLite's connection to `path`; a failure names `file`, the store it is for. */
function connect(path: string, file: string): Database.Database {
  try {
    return new Database(path);
  } catch (error) {
    throw fileError(file, `cannot open the memory store (${(error as Error).message})`, { cause: error });
  }
}

/** Opens `file` in SQLite, migrated to this version and checked writable; `existed` says whether a failure may remove it. */
export function openConnection(file: string, tokenizer: TokenCounter, existed: boolean): Database.Database {
  const db = connect(file, file);
  try {
    migrate(db, file, tokenizer);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    // A store the process may read but not write fails here, not at the first memory written:
    // rewriting the version, rolled back, is a write that changes nothing.
    db.exec("BEGIN IMMEDIATE");
    try {
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    } finally {
      db.exec("ROLLBACK");
    }
  } catch (error) {
    db.close();
    if (!existed && isDiskTrouble(error)) removeNewStore(file);
    throw openError(file, error);
  }
  return db;
}

/** The statements a store runs, prepared once per connection (preparing them is most of opening a small store). */
export interface Statements {
  /** Inserts one row, and ROWS_PER_INSERT rows in one statement (fewer statements per batch). */
  insertOne: Database.Statement;
  insertMany: Database.Statement;
  selectById: Database.Statement;
  selectSeq: Database.Statement;
  selectCurrent: Database.Statement;
  selectSince: Database.Statement;
  /** The text of one row, for the index to render a memory's line. */
  selectText: Database.Statement;
  /** updateAccess[n - 1] sets the last access of n rows at once (see TOUCH_ROWS). */
  updateAccess: Database.Statement[];
}

export function prepareStatements(db: Database.Database): Statements {
  const columns = `INSERT INTO memories (${MEMORY_COLUMNS}) VALUES `;
  const row = `(${new Array(COLUMNS_PER_ROW).fill("?").join(", ")})`;
  return {
    insertOne: db.prepare(columns + row),
    insertMany: db.prepare(columns + new Array(ROWS_PER_INSERT).fill(row).join(", ")),
    selectById: db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE scope = ? AND id = ?`),
    selectSeq: db.prepare("SELECT seq FROM memories WHERE scope = ? AND id = ?").pluck(),
    selectCurrent: db.prepare(
      `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE scope = ? AND (expires_at IS NULL OR expires_at > ?)
         AND NOT EXISTS (SELECT 1 FROM memories c WHERE c.scope = m.scope AND c.supersedes = m.id)
       ORDER BY seq`,
    ),
    selectSince: db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE seq > ? ORDER BY seq`),
    selectText: db.prepare("SELECT text FROM memories WHERE seq = ?").pluck(),
    // By row: touch has found each memory's row already, and the row's key needs no second index.
    updateAccess: Array.from({ length: TOUCH_ROWS }, (_, i) =>
      db.prepare(`UPDATE memories SET last_accessed_at = ? WHERE seq IN (${new Array(i + 1).fill("?").join(", ")})`),
    ),
  };
}

/** A store over a connection whose statements are prepared; `release` ends it when the store closes. */
export function storeOn(db: Database.Database, statements: Statements, file: string, tokenizer: TokenCounter, release: () => void): MemoryStore {
  return new SqliteMemoryStore(db, statements, file, tokenizer, release);
}

/**
 * Creates a store at `file`, which did not exist: made under a name of its own beside it, then
 * linked into place whole. Another process opening the path meanwhile never finds it half-made
 * (an empty file, which it would refuse), and two processes creating one path at once end with
 * one store, the first linked, which both then open.
 */
function createStore(file: string, tokenizer: TokenCounter): void {
  const making = `${file}.${randomUUID()}.new`;
  // The name of its own goes in every case: linked into place, or left unfinished.
  try {
    writeNewStore(making, file, tokenizer);
    linkNewStore(making, file);
  } finally {
    removeNewStore(making);
  }
}

/** Makes a whole, migrated store at `making`; errors name `file`, the store it is for. */
function writeNewStore(making: string, file: string, tokenizer: TokenCounter): void {
  const db = connect(making, file);
  try {
    try {
      migrate(db, file, tokenizer);
    } finally {
      db.close();
    }
  } catch (error) {
    throw openError(file, error);
  }
}

/** Links the made store into place; another process that linked its store first wins, and that one is opened. */
function linkNewStore(making: string, file: string): void {
  try {
    linkSync(making, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw fileError(file, `cannot create the memory store (${(error as Error).message})`, { cause: error });
  }
}

/** Refuses what cannot be a store before SQLite opens it; true when `file` exists (a regular file, then). */
function refuseNonStore(file: string): boolean {
  // "" (SQLite's temporary database) needs no test of its own: no file is named "", so it passes as absent.
  if (file === ":memory:") return false;
  let stats;
  try {
    stats = statSync(file);
  } catch {
    // SQLite would drop the slash and create the file before it: "new.sqlite/" would make new.sqlite.
    if (file.endsWith("/")) throw fileError(file, 'ends in "/", so it names a folder, not a memory store file');
    return false; // Absent: SQLite creates it (or says why it cannot).
  }
  if (stats.isDirectory()) throw fileError(file, "is a directory, not a memory store");
  if (!stats.isFile()) throw fileError(file, "is not a regular file, so it cannot be a memory store");
  if (stats.size === 0) {
    // Files under /proc and /sys say they are 0 bytes long, yet read as text: not an empty file.
    if (readsAsData(file)) throw fileError(file, "is not a regular file (its size is given as 0 bytes, yet it reads as data, as files under /proc do), so it cannot be a memory store");
    throw fileError(file, "is an empty file, not a memory store; remove it, or name a path that does not exist yet to create a store there");
  }
  // Checked before SQLite opens it, which would leave its -wal and -shm files behind.
  for (const [path, mode, what] of [
    [file, constants.R_OK, "cannot be read (permission denied)"],
    [file, constants.W_OK, "is read-only: the memory store must be writable"],
    [dirname(file), constants.W_OK, "is in a read-only folder: SQLite writes its journal beside the store"],
  ] as const) {
    try {
      accessSync(path, mode);
    } catch (error) {
      throw fileError(file, what, { cause: error });
    }
  }
  return true;
}

/** Whether a file that says it is empty gives bytes when read. */
function readsAsData(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    return readSync(fd, Buffer.alloc(1), 0, 1, 0) > 0;
  } catch {
    return false; // Unreadable: the permission check that follows says so.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** SQLite's codes for a disk that is full or failing, on which a new store could not be made. */
function isDiskTrouble(error: unknown): boolean {
  return error instanceof Database.SqliteError && (error.code === "SQLITE_FULL" || error.code.startsWith("SQLITE_IOERR"));
}

/**
 * Removes a store this process made and could not finish, or one made under a name of its own
 * (see createStore), so a full disk leaves no half-made file. Only after disk trouble or one's own
 * name: a store that failed for a lock may have been created meanwhile by another process, and is
 * then its own.
 */
function removeNewStore(file: string): void {
  for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
}

/** SQLite's own words for a file it cannot use, made into one message naming the file. */
function openError(file: string, error: unknown): unknown {
  // A RecollectError (from migrate) is not an SqliteError either, so it passes through unchanged.
  if (!(error instanceof Database.SqliteError)) return error;
  const full = noSpaceError(file, error);
  if (full !== undefined) return full;
  if (error.code.startsWith("SQLITE_READONLY") || (error.code.startsWith("SQLITE_CANTOPEN") && error.message.includes("readonly"))) {
    return fileError(file, "is read-only: the memory store must be writable (check the file's and its folder's permissions)", { cause: error });
  }
  return fileError(file, `cannot be used as a memory store (${error.message})`, { cause: error });
}

interface ScopeState {
  index: ScopeIndex;
  /** The row of each slot: with SQLite's (scope, id) index, it finds a memory's slot. */
  rows: SeqSlots;
  /** Target id → id of the memory that corrects it (in a file written before corrections had to follow their targets, the target may not be stored). */
  corrections: Map<string, string>;
}

class SqliteMemoryStore implements MemoryStore {
  /** Each scope's index and what the store keeps beside it. */
  private readonly scopeStates = new Map<string, ScopeState>();
  /** Shared by the scopes' embedding columns; its helper thread stops when the store closes. */
  private readonly prefaulter = new Prefaulter();
  /** The last row this process has in its indexes; rows past it were written by others. */
  private lastSeq = 0;

  private readonly insertOne: Database.Statement;
  private readonly insertMany: Database.Statement;
  private readonly selectById: Database.Statement;
  private readonly selectSeq: Database.Statement;
  private readonly selectCurrent: Database.Statement;
  private readonly selectSince: Database.Statement;
  private readonly selectText: Database.Statement;
  private readonly updateAccess: Database.Statement[];
  private readonly writeAll: (memories: readonly NewMemory[], target: string | null) => Memory[];
  private readonly touchAll: (seqs: readonly number[], now: number) => void;

  constructor(
    db: Database.Database,
    statements: Statements,
    readonly file: string,
    private readonly tokenizer: TokenCounter,
    private readonly release: () => void,
  ) {
    ({
      insertOne: this.insertOne,
      insertMany: this.insertMany,
      selectById: this.selectById,
      selectSeq: this.selectSeq,
      selectCurrent: this.selectCurrent,
      selectSince: this.selectSince,
      selectText: this.selectText,
      updateAccess: this.updateAccess,
    } = statements);
    const write = db.transaction((memories: readonly NewMemory[], target: string | null) => {
      this.catchUp();
      if (target !== null) this.requireStored(memories[0].scope, target, "correct");
      const batch = new Batch(memories);
      const prepared = memories.map((m) => this.prepareMemory(m, batch));
      try {
        this.insertRows(prepared);
      } catch (error) {
        throw this.duplicateError(prepared, error);
      }
      return prepared;
    });
    // Immediate: the write lock is held from the catch-up on, so no other process writes between.
    this.writeAll = write.immediate;
    this.touchAll = db.transaction((seqs: readonly number[], now: number) => {
      for (let at = 0; at < seqs.length; at += TOUCH_ROWS) {
        const rows = seqs.slice(at, at + TOUCH_ROWS);
        this.updateAccess[rows.length - 1].run(now, ...rows);
      }
    });
    this.catchUp();
  }

  remember(memory: NewMemory): Memory {
    return this.rememberMany([memory])[0];
  }

  rememberMany(memories: readonly NewMemory[]): Memory[] {
    return this.write(memories, null);
  }

  correct(oldId: string, memory: NewMemory): Memory {
    return this.write([{ ...memory, supersedes: oldId }], oldId)[0];
  }

  get(scope: string, id: string): Memory | undefined {
    const row = this.selectById.get(scope, id) as MemoryRow | undefined;
    return row === undefined ? undefined : rowToMemory(row);
  }

  current(scope: string, now: number): Memory[] {
    return (this.selectCurrent.all(scope, now) as MemoryRow[]).map(rowToMemory);
  }

  touch(scope: string, ids: readonly string[], now: number): void {
    this.touchSlots(
      scope,
      ids.map((id) => this.requireStored(scope, id, "touch")),
      now,
    );
  }

  /** See touchSlots: slots of the scope's index (requireStored found them, or retrieval ranked them). */
  touchSlots(scope: string, slots: readonly number[], now: number): void {
    if (slots.length === 0) return;
    const { index, rows } = this.scopeStates.get(scope)!;
    this.touchAll(slots.map((slot) => rows.seqAt(slot)), now);
    for (const slot of slots) index.touch(slot, now);
  }

  size(scope?: string): number {
    if (scope !== undefined) return this.indexOf(scope)?.size ?? 0;
    let total = 0;
    for (const { index } of this.scopeStates.values()) total += index.size;
    return total;
  }

  scopes(): string[] {
    return [...this.scopeStates.keys()];
  }

  embeddings(scope: string): StoredEmbeddings | undefined {
    const index = this.indexOf(scope);
    const vectors = index?.vectors ?? null;
    if (index === undefined || vectors === null) return undefined;
    return { dim: vectors.dim, chunks: vectors.chunksOf(index.size) };
  }

  /** See scopeIndex: not part of MemoryStore. */
  indexOf(scope: string): ScopeIndex | undefined {
    return this.scopeStates.get(scope)?.index;
  }

  close(): void {
    void this.prefaulter.close();
    this.release();
  }

  /** Writes a batch in one transaction; the indexes learn of it only once it committed. */
  private write(memories: readonly NewMemory[], target: string | null): Memory[] {
    if (memories.length === 0) return [];
    const prepared = this.writeAll(memories, target);
    this.addToIndexes(prepared, (i) => this.lastSeq + i + 1);
    this.lastSeq += prepared.length;
    return prepared;
  }

  /**
   * Adds the rows committed since `lastSeq` (all of them when the store opens) to the indexes.
   * They are committed, so they stay added even if the write that looked for them fails.
   */
  private catchUp(): void {
    // In chunks: a large store streams in, rather than every row being held at once.
    let chunk: MemoryRow[] = [];
    for (const row of this.selectSince.iterate(this.lastSeq) as IterableIterator<MemoryRow>) {
      chunk.push(row);
      if (chunk.length === CATCH_UP_CHUNK) chunk = this.addRows(chunk);
    }
    if (chunk.length > 0) this.addRows(chunk);
  }

  /** Adds committed rows to the indexes; returns a new empty chunk. */
  private addRows(rows: readonly MemoryRow[]): MemoryRow[] {
    this.addToIndexes(rows.map(rowToMemory), (i) => rows[i].seq);
    this.lastSeq = rows[rows.length - 1].seq;
    return [];
  }

  private requireStored(scope: string, id: string, verb: string): number {
    const slot = this.slotOf(scope, id);
    if (slot === undefined) throw userError(`cannot ${verb} ${id}: no such memory in scope "${scope}"`);
    return slot;
  }

  /** Validates a new memory against the store and the batch so far; fills in defaults. */
  private prepareMemory(m: NewMemory, batch: Batch): Memory {
    if (!KINDS.includes(m.kind)) throw userError(`unknown memory kind "${m.kind}"`);
    if (typeof m.text !== "string") throw userError("memory text must be a string");
    if (typeof m.scope !== "string" || m.scope === "") throw userError("memory scope is empty");
    requireFinite("createdAt", m.createdAt);
    // A given id that is taken is refused by SQLite's (scope, id) index (see duplicateError).
    // Null, as undefined, asks for a default id (JavaScript callers pass either).
    if (m.id !== undefined && m.id !== null) requirePlainId(m.id);
    const id = m.id ?? this.defaultId(m.scope, batch);
    const importance = m.importance ?? DEFAULT_IMPORTANCE;
    requireImportance(id, importance);
    const lastAccessedAt = m.lastAccessedAt ?? m.createdAt;
    requireFinite("lastAccessedAt", lastAccessedAt);
    const supersedes = m.supersedes ?? null;
    if (supersedes !== null) this.checkCorrection(id, m.scope, supersedes, batch);
    const embedding = m.embedding ?? null;
    const vector = embedding === null ? null : this.checkedVector(id, m.scope, embedding.vector, batch);
    batch.add(m.scope, id, supersedes);
    return {
      id,
      scope: m.scope,
      kind: m.kind,
      text: m.text,
      createdAt: m.createdAt,
      occurredAt: m.occurredAt ?? null,
      lastAccessedAt,
      importance,
      tokens: this.tokenizer.count(renderLine(m.text)),
      supersedes,
      expiresAt: m.expiresAt ?? null,
      source: m.source ?? null,
      embedding: vector,
      embeddingModel: embedding === null ? null : embedding.model,
    };
  }

  /**
   * A correction follows what it corrects: its target is stored in the scope already, or comes
   * earlier in the batch. A target that never arrives would leave a correction of nothing, and
   * one written later would vanish as it is written; and since every correction points back in
   * write order, corrections can never form a cycle (in which every memory would vanish).
   */
  private checkCorrection(id: string, scope: string, target: string, batch: Batch): void {
    if (target === id) throw userError(`memory ${id} cannot correct itself`);
    const earlier = this.scopeStates.get(scope)?.corrections.get(target) ?? batch.correctorOf(scope, target);
    if (earlier !== undefined) throw alreadyCorrected(id, target, earlier);
    if (batch.has(scope, target) || this.isStored(scope, target)) return;
    const cycle = batch.cycleFrom(scope, id, target);
    if (cycle !== undefined) {
      throw userError(`memories ${cycle.map(shownId).join(" → ")} correct each other in a cycle, so none of them would stay current; a correction must follow the memory it corrects`);
    }
    const where = batch.comesLater(scope, target) ? "it comes later in this batch; write a memory before its correction" : `no such memory in scope "${scope}"`;
    throw userError(`cannot write ${shownId(id)} as the correction of ${shownId(target)}: ${where}`);
  }

  /**
   * A new memory's embedding as float32, checked against the scope's dimension. A Float32Array
   * is used as given, with no copy: SQLite stores its bytes within this write, and the index
   * copies them into its column after the commit. Any other array is rounded into a new one.
   */
  private checkedVector(id: string, scope: string, given: ArrayLike<number>, batch: Batch): Float32Array {
    const dim = this.indexOf(scope)?.dim || batch.dims.get(scope) || given.length;
    if (given.length === 0 || given.length !== dim) {
      throw userError(`memory ${id}: embedding has ${given.length} dimensions; scope "${scope}" uses ${dim}`);
    }
    // Checked as stored: a value too large for float32 would be stored as Infinity.
    const vector = given instanceof Float32Array ? given : Float32Array.from(given);
    // x * 0 is 0 for a finite x and NaN for ±Infinity or NaN, so one test after the loop finds any.
    let probe = 0;
    for (let i = 0; i < vector.length; i++) probe += vector[i] * 0;
    if (probe !== 0) {
      const i = vector.findIndex((x) => !Number.isFinite(x));
      throw userError(`memory ${id}: embedding value ${i} is ${String(given[i])}, not a finite float32 number`);
    }
    batch.dims.set(scope, dim);
    return vector;
  }

  /**
   * `scope#n`, past the scope's memories and the batch's, skipping ids already taken. It is
   * given under the write lock after the catch-up, so it is free in the file, not only here.
   */
  private defaultId(scope: string, batch: Batch): string {
    let n = (this.indexOf(scope)?.size ?? 0) + batch.size + 1;
    while (this.isStored(scope, `${scope}#${n}`) || batch.has(scope, `${scope}#${n}`)) n++;
    return `${scope}#${n}`;
  }

  private isStored(scope: string, id: string): boolean {
    return this.storedSeq(scope, id) !== undefined;
  }

  /** The row of memory `id` in the file, or undefined when no row of the scope has that id. */
  private storedSeq(scope: string, id: string): number | undefined {
    return this.selectSeq.get(scope, id) as number | undefined;
  }

  /** The slot of memory `id` in its scope's index, or undefined when the index has no such memory. */
  private slotOf(scope: string, id: string): number | undefined {
    const seq = this.storedSeq(scope, id);
    return seq === undefined ? undefined : this.scopeStates.get(scope)?.rows.slotOf(seq);
  }

  /**
   * The error to give for a failed insert: when SQLite refused an id already taken, one naming
   * the first memory of the batch whose id was stored before it or given earlier in it. Called
   * within the write, so the rows stored before the batch are the ones up to `lastSeq`.
   */
  private duplicateError(batch: readonly Memory[], error: unknown): unknown {
    if (!(error instanceof Database.SqliteError) || error.code !== "SQLITE_CONSTRAINT_UNIQUE") return error;
    const given = new Batch([]);
    for (const m of batch) {
      const seq = this.storedSeq(m.scope, m.id);
      if (given.has(m.scope, m.id) || (seq !== undefined && seq <= this.lastSeq)) {
        return userError(`memory ${m.id} already exists in scope "${m.scope}"`, { cause: error });
      }
      given.add(m.scope, m.id, null);
    }
    return error;
  }

  /** Inserts the batch's rows, numbered on from the last row (the write lock keeps them next). */
  private insertRows(rows: readonly Memory[]): void {
    const params: unknown[] = [];
    let at = 0;
    for (; at + ROWS_PER_INSERT <= rows.length; at += ROWS_PER_INSERT) {
      for (let i = at; i < at + ROWS_PER_INSERT; i++) pushRow(params, this.lastSeq + i + 1, rows[i]);
      this.insertMany.run(params);
      params.length = 0;
    }
    for (; at < rows.length; at++) this.insertOne.run(pushRow([], this.lastSeq + at + 1, rows[at]));
  }

  /**
   * Adds committed memories, the i-th stored as row seqOf(i), to their scopes' indexes, a run of
   * one scope at a time. Corrections are recorded first, so a memory corrected within the same
   * batch enters as not current, as it would end up after entering current and being superseded.
   */
  private addToIndexes(memories: readonly Memory[], seqOf: (i: number) => number): void {
    for (const m of memories) {
      if (m.supersedes !== null) this.scopeState(m.scope).corrections.set(m.supersedes, m.id);
    }
    for (let from = 0, to = 0; from < memories.length; from = to) {
      const { index, rows, corrections } = this.scopeState(memories[from].scope);
      while (to < memories.length && memories[to].scope === index.scope) to++;
      const run = memories.slice(from, to);
      index.addMany(run, run.map((m) => !corrections.has(m.id)));
      for (let i = from; i < to; i++) rows.push(seqOf(i));
    }
    // Targets stored before: they stop being current now (the batch's own entered as not current).
    for (const m of memories) {
      if (m.supersedes === null) continue;
      const target = this.slotOf(m.scope, m.supersedes);
      if (target !== undefined) this.scopeState(m.scope).index.supersede(target);
    }
  }

  /** A scope's index and the maps beside it, made empty on first use. */
  private scopeState(scope: string): ScopeState {
    let state = this.scopeStates.get(scope);
    if (state === undefined) {
      const rows = new SeqSlots();
      const index = new ScopeIndex(scope, this.prefaulter, (slot) => this.selectText.get(rows.seqAt(slot)) as string);
      state = { index, rows, corrections: new Map() };
      this.scopeStates.set(scope, state);
    }
    return state;
  }
}

/**
 * An id goes into blocks, messages and files, so it must be printable: not empty, and free of
 * control characters (C0, DEL, C1), which could end a line or hide what follows.
 */
function requirePlainId(id: unknown): void {
  if (typeof id !== "string") throw userError(`memory id must be a string, got ${typeof id}`);
  if (id === "") throw userError("memory id is empty; give a non-empty id, or none for the store to make one");
  const control = CONTROL.exec(id);
  if (control !== null) {
    throw userError(`memory id "${shownId(id)}" holds the control character ${codePoint(control[0])}; ids must be printable text`);
  }
}

/** Importance is a rating on the 1–10 scale that scoring divides by 10; anything else is a caller's mistake. */
function requireImportance(id: string, importance: number): void {
  if (typeof importance !== "number" || !Number.isFinite(importance) || importance < 1 || importance > 10) {
    throw userError(`memory ${shownId(id)}: importance must be a number from 1 to 10, got ${String(importance)}`);
  }
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

function codePoint(ch: string): string {
  return `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** An id as a message shows it: each control character written as its escape, so the message stays one readable line. */
function shownId(id: string): string {
  return id.replace(CONTROLS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A second correction of one memory, named by both the memory written and the one that won. */
function alreadyCorrected(id: string, target: string, earlier: string): RecollectError {
  return userError(`cannot write ${id} as the correction of ${target}: ${target} is already corrected by ${earlier}; correct ${earlier} instead`);
}

/** Rows read at a time when the store opens or catches up with other processes. */
export const CATCH_UP_CHUNK = 4096;
const ROWS_PER_INSERT = 32;
/**
 * Rows a touch updates per statement: a retrieval touches a few to a few dozen, and one statement
 * for several rows cost about 30% less than a statement per row.
 */
const TOUCH_ROWS = 16;

/** What a batch has claimed so far, before any of it reaches the store. */
class Batch {
  readonly dims = new Map<string, number>();

  /** The whole batch, in order: claimed so far are the first `size`; the rest is read only to explain a refusal. */
  constructor(private readonly memories: readonly NewMemory[]) {}
  /**
   * The ids claimed, in order, beside their scopes. They go into per-scope sets only once has()
   * is asked (for a default id): a batch whose ids are all given never needs them.
   */
  private readonly claimedScopes: string[] = [];
  private readonly claimedIds: string[] = [];
  private readonly ids = new Map<string, Set<string>>();
  private indexed = 0;
  /** Per scope, for corrections, target → corrector. */
  private readonly corrections = new Map<string, Map<string, string>>();

  /** Memories claimed, over all scopes. */
  get size(): number {
    return this.claimedIds.length;
  }

  add(scope: string, id: string, supersedes: string | null): void {
    this.claimedScopes.push(scope);
    this.claimedIds.push(id);
    if (supersedes === null) return;
    let corrections = this.corrections.get(scope);
    if (corrections === undefined) this.corrections.set(scope, (corrections = new Map()));
    corrections.set(supersedes, id);
  }

  has(scope: string, id: string): boolean {
    for (; this.indexed < this.claimedIds.length; this.indexed++) {
      const claimedScope = this.claimedScopes[this.indexed];
      let ids = this.ids.get(claimedScope);
      if (ids === undefined) this.ids.set(claimedScope, (ids = new Set()));
      ids.add(this.claimedIds[this.indexed]);
    }
    return this.ids.get(scope)?.has(id) ?? false;
  }

  correctorOf(scope: string, target: string): string | undefined {
    return this.corrections.get(scope)?.get(target);
  }

  /** Whether a memory of the batch not claimed yet has id `id` in `scope`. */
  comesLater(scope: string, id: string): boolean {
    return this.later(scope).has(id);
  }

  /**
   * When `id`, about to be claimed, corrects `target`, and the corrections of the memories after
   * it lead from `target` back to `id`: the ids around that cycle, `id` first and last.
   */
  cycleFrom(scope: string, id: string, target: string): string[] | undefined {
    const later = this.later(scope);
    const path = [id];
    for (let at: string | null | undefined = target; at !== undefined && at !== null; at = later.get(at)) {
      if (path.includes(at)) return at === id ? [...path, id] : undefined;
      path.push(at);
    }
    return undefined;
  }

  /** The given ids of the memories after the claimed ones in `scope`, each with what it corrects. */
  private later(scope: string): Map<string, string | null> {
    const later = new Map<string, string | null>();
    for (const m of this.memories.slice(this.size + 1)) {
      if (m.scope === scope && m.id !== undefined) later.set(m.id, m.supersedes ?? null);
    }
    return later;
  }
}

function requireFinite(field: string, value: number): void {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw userError(`memory ${field} must be a finite number, got ${String(value)}`);
  }
}

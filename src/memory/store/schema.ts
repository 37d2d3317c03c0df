/**
 * The current (v5) schema and the mapping between its rows and `Memory`. Older schemas and the
 * steps from them live in migrations.ts.
 */
import { KINDS, type Kind, type Memory } from "../types.js";

export const SCHEMA_VERSION = 5;

/** Scope given to rows from v1/v2 files, which predate scopes. */
export const LEGACY_SCOPE = "default";

const kindList = KINDS.map((k) => `'${k}'`).join(", ");

/**
 * Ids are unique within a scope, and `supersedes` names a memory of the same scope, so one scope
 * neither learns nor blocks another's ids. The unique index on (scope, supersedes) is what makes
 * "a memory is corrected at most once" hold whichever process writes: SQLite refuses a second
 * correction in the transaction that inserts it. (SQLite's unique indexes let NULLs repeat.)
 * A scope's rows are found through the (scope, id) index; no index orders them by row, as only
 * listing a scope's current memories reads them in that order, and every write would keep it.
 */
export const SCHEMA_V5 = `
CREATE TABLE memories (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  scope TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN (${kindList})),
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
CREATE UNIQUE INDEX memories_correction ON memories (scope, supersedes) WHERE supersedes IS NOT NULL;
`;

/** Typed arrays the index keeps a column in. */
export type ColumnArray = Float64Array | Int32Array | Uint8Array;

/** A field of Memory that a column of the memories table holds. */
interface MemoryColumn<F extends keyof Memory> {
  field: F;
  /** Its name in the table. */
  column: string;
  /** Its value in a row, when that is not the field's own (an embedding is stored as bytes). */
  toRow?: (value: NonNullable<Memory[F]>) => unknown;
  fromRow?: (value: never) => NonNullable<Memory[F]>;
  /** The typed array of the index's column of this field, when retrieval reads it there. */
  index?: { new (length: number): ColumnArray };
  /** Its value in that column: the field's own, when absent. */
  indexValue?: (memory: Memory) => number;
}

/**
 * The memories table's columns after `seq`, in row order: the insert, the selects, the mapping
 * between rows and memories and the index's typed-array columns are all made from this one list,
 * so a column is added here (and in the DDL above, which files keep as written).
 */
export const MEMORY_ROW = [
  { field: "id", column: "id" },
  { field: "scope", column: "scope" },
  // The index keeps kinds as their place in KINDS.
  { field: "kind", column: "kind", index: Uint8Array, indexValue: (m) => KINDS.indexOf(m.kind) },
  { field: "text", column: "text" },
  { field: "createdAt", column: "created_at", index: Float64Array },
  // NaN: no event time, which every comparison treats as no match.
  { field: "occurredAt", column: "occurred_at", index: Float64Array, indexValue: (m) => m.occurredAt ?? Number.NaN },
  { field: "lastAccessedAt", column: "last_accessed_at", index: Float64Array },
  { field: "importance", column: "importance", index: Float64Array },
  { field: "tokens", column: "tokens", index: Int32Array },
  { field: "supersedes", column: "supersedes" },
  // +Infinity: never expires, so `expiresAt > now` holds with no test for null.
  { field: "expiresAt", column: "expires_at", index: Float64Array, indexValue: (m) => m.expiresAt ?? Number.POSITIVE_INFINITY },
  { field: "source", column: "source" },
  { field: "embedding", column: "embedding", toRow: (v: Float32Array) => vectorToBlob(v), fromRow: (b: Buffer) => blobToVector(b) },
  { field: "embeddingModel", column: "embedding_model" },
] as const satisfies readonly { [F in keyof Memory]: MemoryColumn<F> }[keyof Memory][];

type RowColumn = (typeof MEMORY_ROW)[number];

/** A row as SQLite gives it: `seq`, then each column's stored value (null where the field is). */
export type MemoryRow = { seq: number } & {
  [C in RowColumn as C["column"]]: C extends { fromRow: (b: infer B) => unknown } ? B | Extract<Memory[C["field"]], null> : Memory[C["field"]];
};

/** The index's columns of the fields it keeps in typed arrays, named as in Memory. */
export type IndexedColumns = { [C in Extract<RowColumn, { index: unknown }> as C["field"]]: InstanceType<C["index"]> };

export const MEMORY_COLUMNS = ["seq", ...MEMORY_ROW.map((c) => c.column)].join(", ");

/** Values in the row order (`seq` first), as the insert binds them. */
export const COLUMNS_PER_ROW = 1 + MEMORY_ROW.length;

// The list read as parallel arrays: row writes and reads walk these, not the list's objects.
const FIELDS: readonly (keyof Memory)[] = MEMORY_ROW.map((c) => c.field);
const NAMES: readonly string[] = MEMORY_ROW.map((c) => c.column);
const TO_ROW: readonly (((value: never) => unknown) | null)[] = MEMORY_ROW.map((c) => ("toRow" in c ? c.toRow : null));
const FROM_ROW: readonly (((value: never) => unknown) | null)[] = MEMORY_ROW.map((c) => ("fromRow" in c ? c.fromRow : null));

/** Appends the insert parameters of row `seq`, `m`, to `params`, in MEMORY_COLUMNS order. */
export function pushRow(params: unknown[], seq: number, m: Memory): unknown[] {
  params.push(seq);
  for (let i = 0; i < FIELDS.length; i++) {
    const value = m[FIELDS[i]];
    const toRow = TO_ROW[i];
    params.push(toRow === null || value === null ? value : toRow(value as never));
  }
  return params;
}

export function rowToMemory(row: MemoryRow): Memory {
  const memory: Record<string, unknown> = {};
  const values = row as unknown as Record<string, unknown>;
  for (let i = 0; i < FIELDS.length; i++) {
    const value = values[NAMES[i]];
    const fromRow = FROM_ROW[i];
    memory[FIELDS[i]] = fromRow === null || value === null ? value : fromRow(value as never);
  }
  return memory as unknown as Memory;
}

/**
 * The bytes SQLite stores for a vector, as float32: a view of a Float32Array's own bytes, with no
 * copy (SQLite copies them when it binds), or any other array rounded into a new one.
 */
export function vectorToBlob(vector: ArrayLike<number>): Buffer {
  const f32 = vector instanceof Float32Array ? vector : Float32Array.from(vector);
  return Buffer.from(f32.buffer, f32.byteOffset, f32.byteLength);
}

export function blobToVector(blob: Buffer): Float32Array {
  // Copy: the Buffer may be unaligned for a Float32Array view.
  const out = new Float32Array(blob.byteLength / 4);
  new Uint8Array(out.buffer).set(blob);
  return out;
}

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

export interface MemoryRow {
  seq: number;
  id: string;
  scope: string;
  kind: Kind;
  text: string;
  created_at: number;
  occurred_at: number | null;
  last_accessed_at: number;
  importance: number;
  tokens: number;
  supersedes: string | null;
  expires_at: number | null;
  source: string | null;
  embedding: Buffer | null;
  embedding_model: string | null;
}

export const MEMORY_COLUMNS =
  "seq, id, scope, kind, text, created_at, occurred_at, last_accessed_at, importance, tokens, " +
  "supersedes, expires_at, source, embedding, embedding_model";

export function rowToMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    scope: row.scope,
    kind: row.kind,
    text: row.text,
    createdAt: row.created_at,
    occurredAt: row.occurred_at,
    lastAccessedAt: row.last_accessed_at,
    importance: row.importance,
    tokens: row.tokens,
    supersedes: row.supersedes,
    expiresAt: row.expires_at,
    source: row.source,
    embedding: row.embedding === null ? null : blobToVector(row.embedding),
    embeddingModel: row.embedding_model,
  };
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

/**
 * The one persistent cache every embedding passes through: content-addressed by model id and the
 * sha256 of the text, in one SQLite file (WAL mode) that runs, threads and processes share. A text
 * is embedded once per model, whoever asks first; every later reader gets the stored vector, so a
 * run gives the same results with a cold or a warm cache.
 *
 * A file that is not a cache, is damaged, comes from a newer version, or holds a model's vectors
 * at another dimension than the model now gives is refused with one message naming the file; it
 * is never mixed with. Each vector is stored with a checksum of its bytes, so a vector damaged
 * inside an otherwise sound file is refused too.
 */
import type Database from "better-sqlite3";
import { openCacheFile, rowChecksum, textHash } from "../../shared/cache-file.js";
import { fileError } from "../../shared/errors.js";

/** Where runs keep the cache unless told otherwise: beside the journal, never committed. */
export const DEFAULT_CACHE_FILE = ".recollect/embeddings.db";

const VERSION = 1;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS models (model TEXT PRIMARY KEY, dim INTEGER NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS vectors (
  model TEXT NOT NULL,
  hash BLOB NOT NULL,
  vector BLOB NOT NULL,
  checksum BLOB NOT NULL,
  PRIMARY KEY (model, hash)
) STRICT, WITHOUT ROWID;
`;
/** Lookups go in chunks that stay under SQLite's limit on bound parameters. */
const CHUNK = 500;

export class EmbeddingCache {
  private readonly db: Database.Database;

  private constructor(
    readonly file: string,
    db: Database.Database,
  ) {
    this.db = db;
  }

  static open(file: string = DEFAULT_CACHE_FILE): EmbeddingCache {
    return new EmbeddingCache(file, openCacheFile(file, { what: "an embedding cache", version: VERSION, schema: SCHEMA, elsewhere: "name another cache file (--embedding-cache)" }));
  }

  /** The stored vectors of `texts` under `model`, in order; undefined where a text has none. */
  get(model: string, texts: readonly string[]): (Float32Array | undefined)[] {
    const hashes = texts.map(textHash);
    const found = new Map<string, Float32Array>();
    for (let start = 0; start < hashes.length; start += CHUNK) {
      const chunk = [...new Set(hashes.slice(start, start + CHUNK).map((h) => h.toString("hex")))];
      const rows = this.db
        .prepare(`SELECT hash, vector, checksum FROM vectors WHERE model = ? AND hash IN (${chunk.map(() => "?").join(",")})`)
        .all(model, ...chunk.map((h) => Buffer.from(h, "hex"))) as { hash: Buffer; vector: Buffer; checksum: Buffer }[];
      for (const row of rows) {
        if (!rowChecksum(model, row.hash, row.vector).equals(row.checksum)) {
          throw fileError(this.file, `is damaged: a stored vector of "${model}" does not match its checksum; delete it, and the next run rebuilds it`);
        }
        found.set(row.hash.toString("hex"), toVector(row.vector));
      }
    }
    const dim = this.dimension(model);
    return hashes.map((h) => {
      const vector = found.get(h.toString("hex"));
      if (vector !== undefined && dim !== undefined && vector.length !== dim) throw this.mixed(model, dim, vector.length);
      return vector;
    });
  }

  /**
   * Stores vectors that are not stored yet, in one transaction; a vector another process stored
   * first is kept, and is what `get` returns to everyone after.
   */
  put(model: string, entries: readonly { text: string; vector: Float32Array }[]): void {
    if (entries.length === 0) return;
    const dim = entries[0].vector.length;
    const bad = entries.find((e) => e.vector.length !== dim);
    if (bad !== undefined) throw new Error(`model "${model}" returned vectors of ${dim} and ${bad.vector.length} dimensions in one batch`);
    const insertModel = this.db.prepare("INSERT OR IGNORE INTO models (model, dim) VALUES (?, ?)");
    const insert = this.db.prepare("INSERT OR IGNORE INTO vectors (model, hash, vector, checksum) VALUES (?, ?, ?, ?)");
    this.db
      .transaction(() => {
        insertModel.run(model, dim);
        const stored = this.dimension(model);
        if (stored !== dim) throw this.mixed(model, stored!, dim);
        for (const { text, vector } of entries) {
          const hash = textHash(text);
          const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
          insert.run(model, hash, bytes, rowChecksum(model, hash, bytes));
        }
      })
      .immediate();
  }

  /** The dimension of `model`'s stored vectors, if it has any. */
  dimension(model: string): number | undefined {
    return (this.db.prepare("SELECT dim FROM models WHERE model = ?").get(model) as { dim: number } | undefined)?.dim;
  }

  /** How many vectors are stored for `model`. */
  count(model: string): number {
    return (this.db.prepare("SELECT count(*) AS n FROM vectors WHERE model = ?").get(model) as { n: number }).n;
  }

  close(): void {
    this.db.close();
  }

  private mixed(model: string, stored: number, now: number) {
    return fileError(
      this.file,
      `holds ${stored}-dimensional vectors of "${model}", but ${now}-dimensional ones came with them: delete the cache (it is rebuilt on the next run), or give a changed model another id`,
    );
  }
}

/** A stored vector, copied out of SQLite's buffer into an aligned Float32Array. */
function toVector(blob: Buffer): Float32Array {
  const vector = new Float32Array(blob.byteLength / 4);
  new Uint8Array(vector.buffer).set(blob);
  return vector;
}

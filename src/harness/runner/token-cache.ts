/**
 * Token counts kept across runs: content-addressed by the tokenizer's hash and the sha256 of the
 * text, in one SQLite file beside the embedding cache that runs, threads and processes share (see
 * shared/cache-file.ts). A count is the tokenizer's, whoever counted it first, so a run gives the
 * same results with a cold or a warm cache; a warm one spares every thread loading the tokenizer.
 * Each count is stored with a checksum, so a row damaged inside a sound file is refused, not trusted.
 */
import type Database from "better-sqlite3";
import type { TokenCounter } from "../../memory/index.js";
import { openCacheFile, rowChecksum, textHash } from "../../shared/cache-file.js";
import { fileError } from "../../shared/errors.js";

/** Where runs keep the counts unless told otherwise: beside the embedding cache, never committed. */
export const DEFAULT_TOKEN_CACHE_FILE = ".recollect/token-counts.db";

const VERSION = 1;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS counts (
  tokenizer TEXT NOT NULL,
  hash BLOB NOT NULL,
  count INTEGER NOT NULL,
  checksum BLOB NOT NULL,
  PRIMARY KEY (tokenizer, hash)
) STRICT, WITHOUT ROWID;
`;

export class TokenCountCache {
  private readonly select: Database.Statement<[string, Buffer], { count: number; checksum: Buffer }>;
  private readonly insert: Database.Statement<[string, Buffer, number, Buffer]>;

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
  ) {
    this.select = db.prepare("SELECT count, checksum FROM counts WHERE tokenizer = ? AND hash = ?");
    this.insert = db.prepare("INSERT OR IGNORE INTO counts (tokenizer, hash, count, checksum) VALUES (?, ?, ?, ?)");
  }

  static open(file: string = DEFAULT_TOKEN_CACHE_FILE): TokenCountCache {
    return new TokenCountCache(file, openCacheFile(file, { what: "a token-count cache", version: VERSION, schema: SCHEMA, elsewhere: "move it away, and the next run makes its cache there" }));
  }

  /** The stored count of `text` under the tokenizer whose hash is `tokenizer`, if there is one. */
  get(tokenizer: string, text: string): number | undefined {
    const hash = textHash(text);
    const row = this.select.get(tokenizer, hash);
    if (row === undefined) return undefined;
    if (!checksumOf(tokenizer, hash, row.count).equals(row.checksum)) {
      throw fileError(this.file, "is damaged: a stored token count does not match its checksum; delete it, and the next run rebuilds it");
    }
    return row.count;
  }

  /** Stores counts not stored yet, in one transaction; a count another process stored first is kept. */
  put(tokenizer: string, entries: readonly { text: string; count: number }[]): void {
    if (entries.length === 0) return;
    this.db
      .transaction(() => {
        for (const { text, count } of entries) {
          const hash = textHash(text);
          this.insert.run(tokenizer, hash, count, checksumOf(tokenizer, hash, count));
        }
      })
      .immediate();
  }

  close(): void {
    this.db.close();
  }
}

const checksumOf = (tokenizer: string, hash: Buffer, count: number) => rowChecksum(tokenizer, hash, String(count));

/** A counter that remembers counts, and can write the ones it made to a persistent cache. */
export interface CachingCounter extends TokenCounter {
  /** Stores the counts made since the last flush (nothing without a cache file). */
  flush(): void;
  /** Flushes and closes the cache file. */
  close(): void;
}

/** The tokenizer a counter prices with: its hash (the cache key), and the tokenizer itself, loaded only when a count is missing. */
export interface LazyTokenizer {
  sha256: string;
  load(): TokenCounter;
}

/**
 * Counts each distinct text once per counter: from memory, else from the cache file (when one is
 * given), else with the tokenizer, loaded at the first text no cache holds.
 */
export function cachingCounter(tokenizer: LazyTokenizer, cacheFile?: string): CachingCounter {
  const memo = new Map<string, number>();
  let made: { text: string; count: number }[] = [];
  let cache: TokenCountCache | undefined;
  let counter: TokenCounter | undefined;
  const flush = () => {
    if (cache !== undefined) cache.put(tokenizer.sha256, made);
    made = [];
  };
  return {
    count(text) {
      let n = memo.get(text);
      if (n !== undefined) return n;
      if (cacheFile !== undefined) {
        cache ??= TokenCountCache.open(cacheFile);
        n = cache.get(tokenizer.sha256, text);
      }
      if (n === undefined) {
        counter ??= tokenizer.load();
        n = counter.count(text);
        made.push({ text, count: n });
      }
      memo.set(text, n);
      return n;
    },
    flush,
    close() {
      flush();
      cache?.close();
      cache = undefined;
    },
  };
}

/**
 * SQLite FTS5 as the peer the index is measured against: the same rows in one FTS5 table (the
 * text indexed, every other column stored beside it unindexed, embeddings included), written in
 * one transaction per batch through a prepared multi-row insert as the store writes them (the
 * same parameters gathered the same way, embeddings bound as their own bytes), and
 * queried for the five best by FTS5's own `bm25()` for an OR of the query's words.
 */
import Database from "better-sqlite3";
import { renderLine } from "../memory/index.js";
import { vectorToBlob } from "../memory/index.js";
import type { TokenCounter } from "../memory/index.js";
import { DEFAULT_IMPORTANCE, type NewMemory } from "../memory/index.js";

const COLUMNS = [
  "text",
  "id",
  "scope",
  "kind",
  "created_at",
  "occurred_at",
  "last_accessed_at",
  "importance",
  "tokens",
  "supersedes",
  "expires_at",
  "source",
  "embedding",
  "embedding_model",
];
const ROWS_PER_INSERT = 32;

export class Fts5Peer {
  private readonly db: Database.Database;
  private readonly insertOne: Database.Statement;
  private readonly insertMany: Database.Statement;
  private readonly search: Database.Statement;
  private readonly insertAll: (memories: readonly NewMemory[]) => void;

  constructor(
    file: string,
    private readonly tokenizer: TokenCounter,
  ) {
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    const unindexed = COLUMNS.slice(1).map((c) => `${c} UNINDEXED`);
    this.db.exec(`CREATE VIRTUAL TABLE memories USING fts5(text, ${unindexed.join(", ")})`);
    const row = `(${COLUMNS.map(() => "?").join(", ")})`;
    const insert = `INSERT INTO memories (${COLUMNS.join(", ")}) VALUES `;
    this.insertOne = this.db.prepare(insert + row);
    this.insertMany = this.db.prepare(insert + new Array(ROWS_PER_INSERT).fill(row).join(", "));
    this.search = this.db.prepare("SELECT rowid FROM memories WHERE memories MATCH ? ORDER BY bm25(memories) LIMIT ?").pluck();
    this.insertAll = this.db.transaction((memories: readonly NewMemory[]) => {
      const params: unknown[] = [];
      let at = 0;
      for (; at + ROWS_PER_INSERT <= memories.length; at += ROWS_PER_INSERT) {
        for (let i = at; i < at + ROWS_PER_INSERT; i++) this.pushRow(params, memories[i]);
        this.insertMany.run(params);
        params.length = 0;
      }
      for (; at < memories.length; at++) this.insertOne.run(this.pushRow([], memories[at]));
    });
  }

  /** Writes `memories` in one transaction. */
  insert(memories: readonly NewMemory[]): void {
    this.insertAll(memories);
  }

  /** Row ids of the `k` best rows by bm25() matching any of `words` (none when `words` is empty). */
  topK(words: readonly string[], k: number): number[] {
    if (words.length === 0) return [];
    return this.search.all(words.map((w) => `"${w.replace(/"/g, '""')}"`).join(" OR "), k) as number[];
  }

  close(): void {
    this.db.close();
  }

  /** Appends the insert parameters of `m` to `params`, in COLUMNS order. */
  private pushRow(params: unknown[], m: NewMemory): unknown[] {
    params.push(
      m.text,
      m.id ?? null,
      m.scope,
      m.kind,
      m.createdAt,
      m.occurredAt ?? null,
      m.lastAccessedAt ?? m.createdAt,
      m.importance ?? DEFAULT_IMPORTANCE,
      this.tokenizer.count(renderLine(m.text)),
      m.supersedes ?? null,
      m.expiresAt ?? null,
      m.source ?? null,
      // The same bytes as the store binds: a Float32Array's own, with no copy.
      m.embedding ? vectorToBlob(m.embedding.vector) : null,
      m.embedding?.model ?? null,
    );
    return params;
  }
}

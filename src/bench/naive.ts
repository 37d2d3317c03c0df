/**
 * The naive baseline the index is measured against: per query, read every row of the scope from
 * SQLite, keep the current ones, score each in JS under the same contract (bm25 relevance scaled
 * to the candidates, recency, importance, weighted sum), sort everything and take the top k.
 * It reads every column the contract needs; it leaves out the embedding blobs, which bm25
 * scoring never reads, so the comparison does not flatter the index.
 */
import type Database from "better-sqlite3";
import { bm25Idf, bm25Term } from "../memory/relevance/bm25.js";
import { importanceScore, recencyScore, retrievalScore } from "../memory/scoring.js";
import type { MemoryRow } from "../memory/store/schema.js";
import type { ScoreConfig } from "../memory/types.js";
import { tokenizeWords, wordSet } from "../memory/words.js";

/** The columns the contract needs (no embedding blobs: bm25 scoring never reads them). */
type Row = Pick<
  MemoryRow,
  "id" | "kind" | "text" | "created_at" | "occurred_at" | "last_accessed_at" | "importance" | "supersedes" | "expires_at"
>;

export interface NaiveBaseline {
  /** Ids of the top `k` current memories for `text` at `now`, best first. */
  topK(text: string, now: number, k: number): string[];
}

/** `config` is a bm25 score config (stream retrieval with bm25 relevance, stopwords removed). */
export function naiveBm25Baseline(db: Database.Database, scope: string, config: ScoreConfig): NaiveBaseline {
  const select = db.prepare(
    `SELECT id, kind, text, created_at, occurred_at, last_accessed_at, importance, supersedes, expires_at
     FROM memories WHERE scope = ?`,
  );
  const stopwords = config.stopwords ?? true;
  return {
    topK(text, now, k) {
      const rows = select.all(scope) as Row[];
      const corrected = new Set<string>();
      for (const row of rows) if (row.supersedes !== null) corrected.add(row.supersedes);
      const live = rows.filter((r) => !corrected.has(r.id) && (r.expires_at === null || r.expires_at > now));

      const docs = live.map((r) => tokenizeWords(r.text, { stopwords }));
      const averageLength = docs.length > 0 ? docs.reduce((sum, d) => sum + d.length, 0) / docs.length : 0;
      const rel = new Float64Array(live.length);
      for (const term of wordSet(text, { stopwords })) {
        const tfs = docs.map((d) => d.reduce((n, w) => (w === term ? n + 1 : n), 0));
        const df = tfs.reduce((n, tf) => (tf > 0 ? n + 1 : n), 0);
        if (df === 0) continue;
        const idf = bm25Idf(live.length, df);
        tfs.forEach((tf, i) => {
          if (tf > 0) rel[i] += bm25Term(idf, tf, docs[i].length, averageLength);
        });
      }
      let max = 0;
      for (const r of rel) max = Math.max(max, r);

      const scored = live.map((row, i) => {
        const relevance = max > 0 ? rel[i] / max : rel[i];
        const decay = config.kindDecay[row.kind] ?? config.decayRate;
        const rec = recencyScore(now, row.last_accessed_at, decay, config.unitMs);
        const imp = importanceScore(row.importance);
        return { row, total: retrievalScore(relevance, rec, imp, config.weights) };
      });
      const when = (r: Row) => r.occurred_at ?? r.created_at;
      scored.sort((a, b) => {
        if (a.total !== b.total) return b.total - a.total;
        if (when(a.row) !== when(b.row)) return when(b.row) - when(a.row);
        return a.row.id < b.row.id ? -1 : 1;
      });
      return scored.slice(0, k).map((s) => s.row.id);
    },
  };
}

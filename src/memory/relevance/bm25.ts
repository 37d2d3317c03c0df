/**
 * `bm25`: Okapi BM25 (k1 = 1.5, b = 0.75, Lucene's non-negative idf) over the scope's memories
 * current at `now`, summed over the query's distinct words. Sections divide by the maximum over
 * their candidates, so the signal lands in [0, 1] beside recency and importance.
 */
import { wordSet } from "../words.js";
import type { RelevanceInput, RelevanceScores } from "./types.js";

export const BM25_K1 = 1.5;
export const BM25_B = 0.75;

export function bm25Relevance({ index, query, now, stopwords }: RelevanceInput): RelevanceScores {
  const values = index.scoresBuffer();
  const matched: number[] = [];
  const corpus = index.corpusStats(now, stopwords);
  const lengths = stopwords ? index.contentWordCount : index.wordCount;
  // With no current memory no word has a document frequency above 0, so no term reads this NaN.
  const averageLength = corpus.words / corpus.count;
  for (const word of wordSet(query.text, { stopwords })) {
    const posting = index.postings.get(word);
    if (posting === undefined) continue;
    // A posting lists a slot once per occurrence, in a row: its run's length is the word's tf.
    const { slots, length } = posting;
    let df = 0;
    for (let i = 0; i < length; i++) if ((i === 0 || slots[i] !== slots[i - 1]) && index.isCurrent(slots[i], now)) df++;
    if (df === 0) continue;
    const idf = bm25Idf(corpus.count, df);
    for (let i = 0; i < length; ) {
      const slot = slots[i];
      let tf = 1;
      while (++i < length && slots[i] === slot) tf++;
      if (!index.isCurrent(slot, now)) continue;
      if (values[slot] === 0) matched.push(slot);
      values[slot] += bm25Term(idf, tf, lengths[slot], averageLength);
    }
  }
  return { values, matched: Int32Array.from(matched), scaleToCandidates: true };
}

export function bm25Idf(documents: number, documentFrequency: number): number {
  return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

export function bm25Term(idf: number, tf: number, length: number, averageLength: number): number {
  const relativeLength = averageLength > 0 ? length / averageLength : 0;
  return (idf * (tf * (BM25_K1 + 1))) / (tf + BM25_K1 * (1 - BM25_B + BM25_B * relativeLength));
}

/**
 * `words`: the fraction of the query's distinct words that a memory also contains. No model,
 * no corpus statistics; visits only memories that share a word, through the postings.
 */
import { wordSet } from "../words.js";
import type { RelevanceInput, RelevanceScores } from "./types.js";

export function wordsRelevance({ index, query, stopwords }: RelevanceInput): RelevanceScores {
  const values = index.scoresBuffer();
  const matched: number[] = [];
  const queryWords = wordSet(query.text, { stopwords });
  for (const word of queryWords) {
    const posting = index.postings.get(word);
    if (posting === undefined) continue;
    for (let i = 0; i < posting.length; i++) {
      const slot = posting.slots[i];
      // A slot is listed once per occurrence of the word; it counts once.
      if (i > 0 && posting.slots[i - 1] === slot) continue;
      if (values[slot] === 0) matched.push(slot);
      values[slot] += 1;
    }
  }
  for (const slot of matched) values[slot] /= queryWords.length;
  return { values, matched: Int32Array.from(matched), scaleToCandidates: false };
}

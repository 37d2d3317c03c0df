/**
 * Grading of free-text answers against keys. Both sides are normalised (lower case, accents,
 * punctuation and articles removed, whitespace collapsed) and a key matches when its normalised
 * form occurs in the answer as whole words, so "cat" does not match "concatenate" nor "7" match "17".
 */
import { userError } from "../shared/errors.js";

/** One key: a phrase, or a list of alternatives of which any one will do. */
export type AnswerKey = string | readonly string[];

export interface Grade {
  /** Per key, whether it matched. */
  matched: boolean[];
  /** The keys that did not match, as given. */
  missing: AnswerKey[];
  /** Fraction of keys matched; 1 when there are no keys. */
  score: number;
  allMatched: boolean;
}

const ARTICLES = new Set(["a", "an", "the"]);

export function normaliseAnswer(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .split(" ")
    .filter((word) => word.length > 0 && !ARTICLES.has(word))
    .join(" ");
}

export function keyMatches(answer: string, key: AnswerKey): boolean {
  const haystack = ` ${normaliseAnswer(answer)} `;
  const alternatives = typeof key === "string" ? [key] : key;
  return alternatives.some((alternative) => {
    const needle = normaliseAnswer(alternative);
    if (needle === "") throw userError(`answer key "${alternative}" is empty once normalised: give it a word other than an article`);
    return haystack.includes(` ${needle} `);
  });
}

export function gradeAnswer(answer: string, keys: readonly AnswerKey[]): Grade {
  const matched = keys.map((key) => keyMatches(answer, key));
  const hits = matched.filter(Boolean).length;
  return {
    matched,
    missing: keys.filter((_, i) => !matched[i]),
    score: keys.length === 0 ? 1 : hits / keys.length,
    allMatched: hits === keys.length,
  };
}

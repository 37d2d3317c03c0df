/**
 * Word tokenisation shared by the `words` and `bm25` relevance backends, so a query and a memory
 * are always split the same way.
 *
 * Rules: lower-case (locale-independent), split on anything that is not a letter, digit or
 * apostrophe. Apostrophes are then resolved inside a word: a possessive `'s` is dropped
 * ("Sam's" → "sam") and any other inner apostrophe is removed ("don't" → "dont"); apostrophes at
 * the edges are quotes and vanish. Curly apostrophes count as straight ones.
 */

/**
 * A small English stopword list. Removing these helps `bm25`, whose idf would otherwise be spent
 * on "the" and "a"; `words` keeps them by default so its shared-words fraction stays literal.
 */
export const STOPWORDS: ReadonlySet<string> = new Set([
  "a", "about", "after", "again", "all", "am", "an", "and", "any", "are", "as", "at", "be",
  "been", "before", "being", "but", "by", "can", "could", "did", "do", "does", "doing", "dont",
  "for", "from", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how",
  "i", "if", "in", "into", "is", "it", "its", "just", "me", "my", "myself", "no", "nor", "not",
  "of", "off", "on", "once", "only", "or", "other", "our", "ours", "out", "over", "own", "same",
  "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them",
  "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until",
  "up", "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom",
  "why", "will", "with", "would", "you", "your", "yours", "yourself",
]);

const SPLIT = /[^\p{L}\p{N}']+/u;
const CURLY_APOSTROPHES = /[\u2018\u2019\u02bc]/g;

/** The words of `text`, in order, with repeats. */
export function tokenizeWords(text: string, options: { stopwords?: boolean } = {}): string[] {
  const words: string[] = [];
  for (const raw of text.toLowerCase().replace(CURLY_APOSTROPHES, "'").split(SPLIT)) {
    const word = normaliseApostrophes(raw);
    if (word === "") continue;
    if (options.stopwords && STOPWORDS.has(word)) continue;
    words.push(word);
  }
  return words;
}

/** The distinct words of `text`, in first-seen order. */
export function wordSet(text: string, options: { stopwords?: boolean } = {}): string[] {
  return [...new Set(tokenizeWords(text, options))];
}

function normaliseApostrophes(raw: string): string {
  if (!raw.includes("'")) return raw;
  let word = raw.replace(/^'+|'+$/g, "");
  if (word.endsWith("'s")) word = word.slice(0, -2);
  return word.replace(/'/g, "");
}

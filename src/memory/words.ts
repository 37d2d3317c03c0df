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
const NON_ASCII = /[^\x00-\x7f]/;

/** The words of `text`, in order, with repeats. */
export function tokenizeWords(text: string, options: { stopwords?: boolean } = {}): string[] {
  const words = isAscii(text) ? asciiWords(text) : unicodeWords(text);
  return options.stopwords ? words.filter((word) => !STOPWORDS.has(word)) : words;
}

/** The distinct words of `text`, in first-seen order. */
export function wordSet(text: string, options: { stopwords?: boolean } = {}): string[] {
  return [...new Set(tokenizeWords(text, options))];
}

/** Whether `text` is plain ASCII, which AsciiWordCursor reads; any other text goes through unicodeWords. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** The rules applied to any text by Unicode property: the definition the ASCII cursor must agree with. */
export function unicodeWords(text: string): string[] {
  const words: string[] = [];
  for (const raw of text.toLowerCase().replace(CURLY_APOSTROPHES, "'").split(SPLIT)) {
    const word = normaliseApostrophes(raw);
    if (word !== "") words.push(word);
  }
  return words;
}

function asciiWords(text: string): string[] {
  const words: string[] = [];
  const cursor = new AsciiWordCursor(text);
  while (cursor.next()) words.push(cursor.rewritten ?? text.slice(cursor.from, cursor.to).toLowerCase());
  return words;
}

function normaliseApostrophes(raw: string): string {
  if (!raw.includes("'")) return raw;
  let word = raw.replace(/^'+|'+$/g, "");
  if (word.endsWith("'s")) word = word.slice(0, -2);
  return word.replace(/'/g, "");
}

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** FNV-1a over a word's UTF-16 code units: the hash the postings file a word under. */
export function wordHash(word: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), FNV_PRIME);
  return hash;
}

/** Each ASCII code lower-cased (A–Z to a–z, the rest as they are). */
export const ASCII_LOWER = Uint8Array.from({ length: 128 }, (_, c) => (c >= 65 && c <= 90 ? c + 32 : c));
const [SEPARATOR, LETTER_OR_DIGIT, APOSTROPHE] = [0, 1, 2];
/** In ASCII, \p{L} is A–Z and a–z and \p{N} is 0–9. */
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, c) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? LETTER_OR_DIGIT : c === 39 ? APOSTROPHE : SEPARATOR,
);

/**
 * Reads the words of an ASCII text (see isAscii) in place, by the rules of unicodeWords, so that
 * indexing a memory allocates no string for a word it has seen before. After each next() that
 * returns true, the word is text[from, to) lower-cased, with `hash` its wordHash; or, when the
 * raw word held an apostrophe (which the rules rewrite), it is `rewritten`.
 */
export class AsciiWordCursor {
  from = 0;
  to = 0;
  hash = 0;
  rewritten: string | null = null;
  private at = 0;

  constructor(private readonly text: string) {}

  next(): boolean {
    const text = this.text;
    const end = text.length;
    for (;;) {
      let i = this.at;
      while (i < end && ASCII_CLASS[text.charCodeAt(i)] === SEPARATOR) i++;
      if (i === end) return false;
      const from = i;
      let hash = FNV_OFFSET;
      let apostrophe = false;
      for (; i < end; i++) {
        const c = text.charCodeAt(i);
        const kind = ASCII_CLASS[c];
        if (kind === SEPARATOR) break;
        if (kind === APOSTROPHE) apostrophe = true;
        hash = Math.imul(hash ^ ASCII_LOWER[c], FNV_PRIME);
      }
      this.at = i;
      if (!apostrophe) {
        this.from = from;
        this.to = i;
        this.hash = hash;
        this.rewritten = null;
        return true;
      }
      const word = normaliseApostrophes(text.slice(from, i).toLowerCase());
      if (word === "") continue; // quotes only
      this.rewritten = word;
      this.hash = wordHash(word);
      return true;
    }
  }
}

/**
 * Term postings for one scope: for each word, the slots that contain it. Both the `words` and
 * `bm25` backends read them, so a query visits only memories sharing a word with it.
 * Postings are append-only; superseded or expired slots are filtered when read.
 */
import { STOPWORDS } from "../words.js";

/**
 * A word's slots in increasing order, a slot repeated once per occurrence of the word in it: a
 * memory holding the word twice is listed twice, in a row. Most words occur once per memory, so
 * this costs less than a count beside every slot, and adding a word is one append.
 */
export class Posting {
  constructor(
    /** Whether the word is a stopword (counted apart in document lengths). */
    readonly stop: boolean,
  ) {}

  slots = new Int32Array(4);
  length = 0;

  push(slot: number): void {
    if (this.length === this.slots.length) {
      const next = new Int32Array(this.length * 2);
      next.set(this.slots);
      this.slots = next;
    }
    this.slots[this.length++] = slot;
  }
}

export class Postings {
  private readonly terms = new Map<string, Posting>();

  /** Adds a document's words (with repeats) under `slot` and returns how many of them are not stopwords. */
  add(slot: number, words: readonly string[]): number {
    let contentWords = 0;
    for (const word of words) {
      let posting = this.terms.get(word);
      if (posting === undefined) {
        posting = new Posting(STOPWORDS.has(word));
        this.terms.set(word, posting);
      }
      posting.push(slot);
      if (!posting.stop) contentWords++;
    }
    return contentWords;
  }

  get(word: string): Posting | undefined {
    return this.terms.get(word);
  }
}

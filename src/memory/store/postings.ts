/**
 * Term postings for one scope: for each word, the slots that contain it and how often. Both the
 * `words` and `bm25` backends read them, so a query visits only memories sharing a word with it.
 * Postings are append-only; superseded or expired slots are filtered when read.
 */
import { STOPWORDS } from "../words.js";

export class Posting {
  constructor(
    /** Whether the word is a stopword (counted apart in document lengths). */
    readonly stop: boolean,
  ) {}

  slots = new Int32Array(4);
  tfs = new Int32Array(4);
  length = 0;

  push(slot: number, tf: number): void {
    if (this.length === this.slots.length) {
      this.slots = grow(this.slots, this.length * 2);
      this.tfs = grow(this.tfs, this.length * 2);
    }
    this.slots[this.length] = slot;
    this.tfs[this.length] = tf;
    this.length++;
  }
}

export class Postings {
  private readonly terms = new Map<string, Posting>();

  /**
   * Adds a document's words (with repeats) under `slot` and returns how many of them are not
   * stopwords. Slots arrive in increasing order, so a repeated word finds its own slot at the end
   * of its posting and only counts up there.
   */
  add(slot: number, words: readonly string[]): number {
    let contentWords = 0;
    for (const word of words) {
      let posting = this.terms.get(word);
      if (posting === undefined) {
        posting = new Posting(STOPWORDS.has(word));
        this.terms.set(word, posting);
        posting.push(slot, 1);
      } else {
        // A posting is created with its first slot, so it always has a last one.
        const last = posting.length - 1;
        if (posting.slots[last] === slot) posting.tfs[last]++;
        else posting.push(slot, 1);
      }
      if (!posting.stop) contentWords++;
    }
    return contentWords;
  }

  get(word: string): Posting | undefined {
    return this.terms.get(word);
  }
}

function grow(array: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(capacity);
  next.set(array);
  return next;
}

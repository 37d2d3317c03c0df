/**
 * Term postings for one scope: for each word, the slots that contain it. Both the `words` and
 * `bm25` backends read them, so a query visits only memories sharing a word with it.
 * Postings are append-only; superseded or expired slots are filtered when read.
 *
 * Indexing a memory costs a lookup and an append per word, and on ingest, between batches of
 * SQLite work that evicts them from the cache, those cost their memory reads more than their
 * instructions. So everything a word's lookup and append read lies in a few flat arrays rather than
 * in objects behind pointers: a hash table whose cells hold each word's place in a pool of
 * characters, one record per word (where its list is, how long, whether a stopword), and one slab
 * holding every word's list. A word of an ASCII text is looked up where it stands in the text,
 * with no string cut out and hashed anew.
 */
import { grownArray, newArray } from "../../shared/grown-array.js";
import { ASCII_LOWER, AsciiWordCursor, isAscii, STOPWORDS, tokenizeWords, wordHash } from "../words.js";

/**
 * A word's slots in increasing order, a slot repeated once per occurrence of the word in it: a
 * memory holding the word twice is listed twice, in a row. Most words occur once per memory, so
 * this costs less than a count beside every slot, and adding a word is one append.
 */
export interface Posting {
  /** Whether the word is a stopword (counted apart in document lengths). */
  readonly stop: boolean;
  /** The slots, read up to `length`: a view that a later add may leave behind, so read it at once. */
  readonly slots: Int32Array;
  readonly length: number;
}

/** A document's word count, with and without stopwords. */
export interface WordCounts {
  words: number;
  contentWords: number;
}

const EMPTY = -1;
/** A cell: the word's number (EMPTY when free), its hash, where its characters start in the pool, and how many. */
const CELL = 4;
/** A word's record: where its list starts in the slab, its length, the room reserved, and 1 for a stopword. */
const RECORD = 4;
const FIRST_ROOM = 4;
/**
 * Room for this many words at first (cells for twice as many), and their lists: small, because
 * a run can hold a scope per conversation, and each array doubles as it fills.
 */
const FIRST_WORDS = 128;
const FIRST_SLAB = 1024;

/** A character code as the postings keep it: ASCII letters lower-cased (see find). */
const lowered = (code: number): number => (code < 128 ? ASCII_LOWER[code] : code);

export class Postings {
  private words = 0;
  private cells = new Int32Array(CELL * 2 * FIRST_WORDS).fill(EMPTY);
  private chars = new Uint16Array(8 * FIRST_WORDS);
  private charsUsed = 0;
  private records = new Int32Array(RECORD * FIRST_WORDS);
  private slab = new Int32Array(FIRST_SLAB);
  private slabUsed = 0;

  /** Adds the words of `text` (tokenizeWords' words) under `slot`. */
  addText(slot: number, text: string): WordCounts {
    if (!isAscii(text)) {
      const words = tokenizeWords(text);
      return { words: words.length, contentWords: this.add(slot, words) };
    }
    const cursor = new AsciiWordCursor(text);
    let words = 0;
    let contentWords = 0;
    while (cursor.next()) {
      const { rewritten, hash } = cursor;
      const word = rewritten === null ? this.wordOf(hash, text, cursor.from, cursor.to, null) : this.wordOf(hash, rewritten, 0, rewritten.length, rewritten);
      contentWords += this.append(word, slot);
      words++;
    }
    return { words, contentWords };
  }

  /** Adds a document's words (with repeats) under `slot` and returns how many of them are not stopwords. */
  add(slot: number, words: readonly string[]): number {
    let contentWords = 0;
    for (const text of words) contentWords += this.append(this.wordOf(wordHash(text), text, 0, text.length, text), slot);
    return contentWords;
  }

  /** The posting of `word`, a word as tokenizeWords gives it (so lower-case). */
  get(word: string): Posting | undefined {
    const at = CELL * this.find(wordHash(word), word, 0, word.length);
    if (this.cells[at] === EMPTY) return undefined;
    const record = RECORD * this.cells[at];
    const start = this.records[record];
    const length = this.records[record + 1];
    return { stop: this.records[record + 3] === 1, slots: this.slab.subarray(start, start + length), length };
  }

  /**
   * The number of the word source[from, to) lower-cased, whose wordHash is `hash`, numbered anew if
   * the word is new; `known` is that word when the caller has it as a string.
   */
  private wordOf(hash: number, source: string, from: number, to: number, known: string | null): number {
    const cell = this.find(hash, source, from, to);
    const at = CELL * cell;
    if (this.cells[at] !== EMPTY) return this.cells[at];
    const word = this.words++;
    this.cells[at] = word;
    this.cells[at + 1] = hash;
    this.cells[at + 2] = this.keepChars(source, from, to);
    this.cells[at + 3] = to - from;
    this.addRecord(word, STOPWORDS.has(known ?? source.slice(from, to).toLowerCase()));
    // At most half full, so that probes stay short.
    if (this.words * 2 * CELL > this.cells.length) this.rehash();
    return word;
  }

  /**
   * The cell of the word source[from, to) lower-cased: the one holding it, or the free one where it
   * would go. Only ASCII letters are lower-cased here; a word with any other character is already
   * lower-case, as tokenizeWords gives it.
   */
  private find(hash: number, source: string, from: number, to: number): number {
    const { cells, chars } = this;
    const mask = cells.length / CELL - 1;
    const length = to - from;
    for (let cell = hash & mask; ; cell = (cell + 1) & mask) {
      const at = CELL * cell;
      if (cells[at] === EMPTY) return cell;
      if (cells[at + 1] !== hash || cells[at + 3] !== length) continue;
      const start = cells[at + 2];
      let k = 0;
      while (k < length) {
        if (lowered(source.charCodeAt(from + k)) !== chars[start + k]) break;
        k++;
      }
      if (k === length) return cell;
    }
  }

  /** Copies source[from, to), lower-cased as find compares it, into the pool; returns where it starts. */
  private keepChars(source: string, from: number, to: number): number {
    const start = this.charsUsed;
    if (start + to - from > this.chars.length) {
      this.chars = grownArray(this.chars, 2 * Math.max(this.chars.length, start + to - from));
    }
    for (let k = from; k < to; k++) this.chars[this.charsUsed++] = lowered(source.charCodeAt(k));
    return start;
  }

  private addRecord(word: number, stop: boolean): void {
    if (RECORD * (word + 1) > this.records.length) this.records = grownArray(this.records, 2 * this.records.length);
    const at = RECORD * word;
    this.records[at] = this.reserve(FIRST_ROOM);
    this.records[at + 1] = 0;
    this.records[at + 2] = FIRST_ROOM;
    this.records[at + 3] = stop ? 1 : 0;
  }

  /** Appends `slot` to the list of `word`; returns 1 when the word counts in a document's length without stopwords, else 0. */
  private append(word: number, slot: number): number {
    const at = RECORD * word;
    const length = this.records[at + 1];
    if (length === this.records[at + 2]) this.moveList(word);
    this.slab[this.records[at] + length] = slot;
    this.records[at + 1] = length + 1;
    return 1 - this.records[at + 3];
  }

  /** Gives a full list twice the room at the slab's end; the room it leaves is reclaimed when the slab grows. */
  private moveList(word: number): void {
    const at = RECORD * word;
    const room = 2 * this.records[at + 2];
    const start = this.reserve(room);
    const from = this.records[at];
    this.slab.copyWithin(start, from, from + this.records[at + 1]);
    this.records[at] = start;
    this.records[at + 2] = room;
  }

  /** Room for `room` slots at the slab's end; when there is none, every list is packed into a larger slab first. */
  private reserve(room: number): number {
    if (this.slabUsed + room > this.slab.length) {
      let kept = room;
      for (let word = 0; word < this.words; word++) kept += this.records[RECORD * word + 2];
      const packed = newArray(Int32Array, Math.max(2 * kept, FIRST_SLAB));
      let used = 0;
      for (let word = 0; word < this.words; word++) {
        const at = RECORD * word;
        // Most lists hold a few slots: a loop copies them faster than a view and a set per list.
        const from = this.records[at];
        const length = this.records[at + 1];
        for (let i = 0; i < length; i++) packed[used + i] = this.slab[from + i];
        this.records[at] = used;
        used += this.records[at + 2];
      }
      this.slab = packed;
      this.slabUsed = used;
    }
    const start = this.slabUsed;
    this.slabUsed += room;
    return start;
  }

  private rehash(): void {
    const old = this.cells;
    this.cells = newArray(Int32Array, 2 * old.length).fill(EMPTY);
    const mask = this.cells.length / CELL - 1;
    for (let from = 0; from < old.length; from += CELL) {
      if (old[from] === EMPTY) continue;
      let cell = old[from + 1] & mask;
      while (this.cells[CELL * cell] !== EMPTY) cell = (cell + 1) & mask;
      this.cells.set(old.subarray(from, from + CELL), CELL * cell);
    }
  }
}

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Posting, Postings } from "../../../src/memory/store/postings.js";
import { STOPWORDS, tokenizeWords } from "../../../src/memory/words.js";

/** A posting as [slot, occurrences] pairs. */
function entries(posting: Posting | undefined): [number, number][] {
  const pairs: [number, number][] = [];
  for (const slot of posting?.slots.subarray(0, posting.length) ?? []) {
    const last = pairs.at(-1);
    if (last?.[0] === slot) last[1]++;
    else pairs.push([slot, 1]);
  }
  return pairs;
}

describe("postings", () => {
  it("lists each word's slots in order with how often each holds it, and counts the words that are not stopwords", () => {
    expect(STOPWORDS.has("the")).toBe(true);
    const postings = new Postings();
    expect(postings.add(0, ["ana", "the", "ana"])).toBe(2);
    expect(postings.add(1, ["the", "lisbon", "ana"])).toBe(2);
    expect(postings.add(2, ["ana", "ana", "ana"])).toBe(3);
    expect(entries(postings.get("ana"))).toEqual([
      [0, 2],
      [1, 1],
      [2, 3],
    ]);
    expect(entries(postings.get("the"))).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(entries(postings.get("lisbon"))).toEqual([[1, 1]]);
    expect(postings.get("porto")).toBeUndefined();
  });
});

describe("postings of texts", () => {
  /** What addText must give: each word's slots by tokenizeWords, and each text's counts. */
  function expected(texts: string[]) {
    const slots = new Map<string, number[]>();
    const counts = texts.map((text, slot) => {
      const words = tokenizeWords(text);
      for (const word of words) slots.set(word, [...(slots.get(word) ?? []), slot]);
      return { words: words.length, contentWords: words.filter((w) => !STOPWORDS.has(w)).length };
    });
    return { slots, counts };
  }

  function check(texts: string[]): void {
    const postings = new Postings();
    const counts = texts.map((text, slot) => postings.addText(slot, text));
    const want = expected(texts);
    expect(counts).toEqual(want.counts);
    for (const [word, slots] of want.slots) {
      const posting = postings.get(word);
      expect(posting?.stop, word).toBe(STOPWORDS.has(word));
      expect(Array.from(posting?.slots.subarray(0, posting.length) ?? []), word).toEqual(slots);
    }
  }

  const word = fc.constantFrom("ana", "Ana", "the", "THE", "lisbon", "Sam's", "don't", "'quoted'", "café", "ZÜRICH", "naïve", "b12", "x", "İstanbul", "ΟΔΟΣ");
  const separator = fc.constantFrom(" ", ", ", "-", "\n", "\u2019", "'");
  const text = fc.array(fc.tuple(word, separator), { maxLength: 12 }).map((parts) => parts.flat().join(""));

  it("lists the words tokenizeWords gives, ASCII or not, with each text's counts", () =>
    fc.assert(
      fc.property(fc.array(text, { maxLength: 30 }), (texts) => check(texts)),
      { numRuns: 300, seed: 20261201 },
    ));

  it("keeps every list whole as the table, the pool of characters and the slab of lists grow", () => {
    // Thousands of distinct words, some long, and a few frequent ones whose lists move often.
    const texts = Array.from({ length: 3000 }, (_, i) => `Word${i} common ${"long".repeat(1 + (i % 9))}${i % 50} the Common`);
    check(texts);
  });

  it("finds no word it was not given, even one whose letters another word holds", () => {
    const postings = new Postings();
    postings.addText(0, "lisbon lisbons");
    expect(postings.get("lisbo")).toBeUndefined();
    expect(postings.get("lisbonx")).toBeUndefined();
    expect(postings.get("lisbons")?.length).toBe(1);
  });
});

describe("postings of unusual words", () => {
  it("keeps a word longer than twice the pool of characters whole", () => {
    const long = "a".repeat(3000);
    const postings = new Postings();
    expect(postings.add(0, [long, "b"])).toBe(2);
    expect(entries(postings.get(long))).toEqual([[0, 1]]);
    expect(postings.get("a".repeat(2999))).toBeUndefined();
    expect(entries(postings.get("b"))).toEqual([[0, 1]]);
  });

  it("tells apart words that are prefixes of one another, however their cells lie", () => {
    // Longest first, so a shorter word may start its probe at a cell a longer one already holds.
    const letters = "thequickbrownfoxjumpsoverthelazydogpackmyboxwithfivedozenliquorjugs";
    const words = Array.from({ length: 60 }, (_, i) => letters.slice(0, i + 1));
    const postings = new Postings();
    for (const [slot, word] of [...words.entries()].reverse()) postings.add(slot, [word]);
    words.forEach((word, slot) => expect(entries(postings.get(word)), word).toEqual([[slot, 1]]));
  });

  it("keeps every list when the slab is repacked while the records are exactly full", () => {
    // 128 distinct words fill the first records; one frequent word then moves its list until the slab is repacked.
    const postings = new Postings();
    const distinct = Array.from({ length: 128 }, (_, i) => `w${i}`);
    postings.add(0, distinct);
    for (let slot = 1; slot <= 700; slot++) postings.add(slot, ["w0"]);
    expect(entries(postings.get("w0"))).toEqual(Array.from({ length: 701 }, (_, slot) => [slot, 1]));
    for (const word of distinct.slice(1)) expect(entries(postings.get(word)), word).toEqual([[0, 1]]);
  });
});

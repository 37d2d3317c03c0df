import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AsciiWordCursor, isAscii, STOPWORDS, tokenizeWords, unicodeWords, wordHash, wordSet } from "../../src/memory/words.js";

/**
 * ASCII text: often made of what the rules treat specially (letters of both cases, digits,
 * apostrophes, and the codes either side of each range), otherwise of any ASCII code.
 */
const asciiText = fc.oneof(
  fc.array(fc.constantFrom(..."aAbZz09'' -.,!_\t\n\u0000\u007f~/:@[`{"), { maxLength: 40 }).map((chars) => chars.join("")),
  fc.string({ unit: "binary-ascii", maxLength: 40 }),
);

describe("tokenizeWords", () => {
  it("lower-cases and splits on anything but letters and digits", () =>
    expect(tokenizeWords("Flight LH-441, gate B12!")).toEqual(["flight", "lh", "441", "gate", "b12"]));
  it("keeps letters beyond ASCII", () => expect(tokenizeWords("Café Zürich")).toEqual(["café", "zürich"]));
  it("drops possessive 's and joins contractions", () =>
    expect(tokenizeWords("Sam's flat, don't")).toEqual(["sam", "flat", "dont"]));
  it("treats curly apostrophes like straight ones", () =>
    expect(tokenizeWords("Sam\u2019s")).toEqual(["sam"]));
  it("treats quotes at word edges as separators", () =>
    expect(tokenizeWords("'hello' ''")).toEqual(["hello"]));
  it("strips every quote at a word's edges before reading a possessive", () =>
    expect(tokenizeWords("Sam's'' ''s")).toEqual(["sam", "s"]));
  it("removes stopwords only when asked", () => {
    expect(tokenizeWords("the trip to Rome")).toEqual(["the", "trip", "to", "rome"]);
    expect(tokenizeWords("the trip to Rome", { stopwords: true })).toEqual(["trip", "rome"]);
  });
  it("has a stopword list of common function words", () => {
    for (const w of ["the", "a", "and", "of", "to"]) expect(STOPWORDS.has(w)).toBe(true);
    expect(STOPWORDS.has("rome")).toBe(false);
  });
});

describe("wordSet", () => {
  it("keeps distinct words in first-seen order", () =>
    expect(wordSet("to be or not to be")).toEqual(["to", "be", "or", "not"]));
});

describe("the ASCII cursor", () => {
  /** Each word the cursor gives, as a string, with its hash. */
  function cursorWords(text: string): { word: string; hash: number }[] {
    const words: { word: string; hash: number }[] = [];
    const cursor = new AsciiWordCursor(text);
    while (cursor.next()) words.push({ word: cursor.rewritten ?? text.slice(cursor.from, cursor.to).toLowerCase(), hash: cursor.hash });
    return words;
  }

  it("gives the words the Unicode rules give, each with its wordHash", () =>
    fc.assert(
      fc.property(asciiText, (text) => {
        const words = cursorWords(text);
        expect(words.map((w) => w.word)).toEqual(unicodeWords(text));
        for (const { word, hash } of words) expect(hash).toBe(wordHash(word));
      }),
      { numRuns: 2000, seed: 20261201 },
    ));

  it("gives a word with an apostrophe as rewritten, and the others in place", () => {
    const cursor = new AsciiWordCursor("Sam's FLAT ''");
    expect(cursor.next()).toBe(true);
    expect(cursor.rewritten).toBe("sam");
    expect(cursor.next()).toBe(true);
    expect([cursor.rewritten, cursor.from, cursor.to]).toEqual([null, 6, 10]);
    expect(cursor.next()).toBe(false);
  });

  it("is used only for ASCII text", () => {
    expect(isAscii("plain text, 42 ~")).toBe(true);
    expect(isAscii("café")).toBe(false);
    expect(isAscii("Sam\u2019s")).toBe(false);
  });
});

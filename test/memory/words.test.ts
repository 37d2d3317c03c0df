import { describe, expect, it } from "vitest";
import { STOPWORDS, tokenizeWords, wordSet } from "../../src/memory/words.js";

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

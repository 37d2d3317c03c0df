import { describe, expect, it } from "vitest";
import { gradeAnswer, keyMatches, normaliseAnswer } from "../../src/model/grade.js";

describe("normaliseAnswer", () => {
  it("lower-cases, strips punctuation and articles, and collapses whitespace", () => {
    expect(normaliseAnswer("  The answer is: an Apple,   a PEAR!  ")).toBe("answer is apple pear");
  });

  it("removes accents and keeps digits and letters of any script", () => {
    expect(normaliseAnswer("Café in Zürich, 2 p.m. — 東京")).toBe("cafe in zurich 2 p m 東京");
  });

  it("leaves articles inside words alone", () => {
    expect(normaliseAnswer("theatre and anthem")).toBe("theatre and anthem");
  });
});

describe("keyMatches", () => {
  it("matches regardless of case, punctuation and articles", () => {
    expect(keyMatches("We moved to SQLite, the embedded one.", "sqlite")).toBe(true);
    expect(keyMatches("It was on the 3rd of May.", "the 3rd of may")).toBe(true);
    expect(keyMatches("It was on the 3rd of May.", "3rd May")).toBe(false);
    expect(keyMatches("Her name is Ana-Maria.", "ana maria")).toBe(true);
  });

  it("matches whole words only", () => {
    expect(keyMatches("We concatenate strings", "cat")).toBe(false);
    expect(keyMatches("She is 17", "7")).toBe(false);
  });

  it("accepts any of a list of alternatives", () => {
    expect(keyMatches("We use Postgres", ["PostgreSQL", "postgres"])).toBe(true);
    expect(keyMatches("We use MySQL", ["PostgreSQL", "postgres"])).toBe(false);
  });

  it("refuses a key that normalises to nothing", () => {
    expect(() => keyMatches("anything", "The!")).toThrow(/empty once normalised/);
  });
});

describe("gradeAnswer", () => {
  it("reports each key, the missing ones and the fraction matched", () => {
    const grade = gradeAnswer("Groq, because it is fast.", ["groq", ["cheap", "low cost"], "fast"]);
    expect(grade).toEqual({ matched: [true, false, true], missing: [["cheap", "low cost"]], score: 2 / 3, allMatched: false });
  });

  it("scores an answer against no keys as fully matched", () => {
    expect(gradeAnswer("anything", [])).toMatchObject({ score: 1, allMatched: true });
  });
});

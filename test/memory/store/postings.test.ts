import { describe, expect, it } from "vitest";
import { type Posting, Postings } from "../../../src/memory/store/postings.js";
import { STOPWORDS } from "../../../src/memory/words.js";

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

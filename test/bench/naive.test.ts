import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { naiveBm25Baseline } from "../../src/bench/naive.js";
import { agrees, streamBm25Policy } from "../../src/bench/run.js";
import { BENCH_SCOPE, cheapTokenCounter, SyntheticData } from "../../src/bench/synthetic.js";
import { retrieve } from "../../src/memory/retrieve.js";
import { openStore } from "../../src/memory/store/store.js";
import { tempPath } from "../memory/helpers.js";

describe("naive baseline", () => {
  it("returns the same top 5 as indexed stream retrieval (bm25), corrections and expiry included", () => {
    const file = tempPath("bench.sqlite");
    const store = openStore(file, { tokenizer: cheapTokenCounter });
    const data = new SyntheticData({ seed: 11, dim: 0, vocabularySize: 300 });
    store.rememberMany(data.nextMemories(3_000));
    const reader = new Database(file, { readonly: true });
    const naive = naiveBm25Baseline(reader, BENCH_SCOPE, streamBm25Policy.score);
    const queries = data.queries(25);
    for (const q of queries) {
      const policy = { ...streamBm25Policy, touch: false };
      const block = retrieve(store, { scope: BENCH_SCOPE, query: { text: q.text }, now: q.now, policy });
      expect(naive.topK(q.text, q.now, 5)).toEqual(block.sections[0].kept);
    }
    expect(agrees(store, naive, queries)).toBe(true);
    reader.close();
    store.close();
  });
});

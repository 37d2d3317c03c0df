import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cachingCounter, DEFAULT_TOKEN_CACHE_FILE, TokenCountCache } from "../../../src/harness/runner/token-cache.js";
import { FileError } from "../../../src/shared/errors.js";
import { useTempDir } from "../temp-files.js";
import { damagePages } from "../../helpers/damage-pages.js";

const temp = useTempDir("recollect-token-cache-");
let files = 0;
const freshFile = () => temp.path(`counts-${++files}.db`);

/** A tokenizer that counts characters, and how often it was loaded and asked. */
function fakeTokenizer(sha256 = "tok-a") {
  const seen = { loads: 0, counted: [] as string[] };
  return {
    seen,
    tokenizer: {
      sha256,
      load: () => {
        seen.loads++;
        return { count: (text: string) => (seen.counted.push(text), text.length) };
      },
    },
  };
}

describe("TokenCountCache", () => {
  it("keeps the counts beside the embedding cache by default", () => {
    expect(DEFAULT_TOKEN_CACHE_FILE).toBe(".recollect/token-counts.db");
  });

  it("round-trips counts across a reopen, each under its tokenizer's hash", () => {
    const file = freshFile();
    const cache = TokenCountCache.open(file);
    cache.put("tok-a", [
      { text: "tea", count: 1 },
      { text: "The user went to Rome.", count: 6 },
    ]);
    cache.close();
    const again = TokenCountCache.open(file);
    expect(again.get("tok-a", "tea")).toBe(1);
    expect(again.get("tok-a", "The user went to Rome.")).toBe(6);
    expect(again.get("tok-b", "tea"), "another tokenizer's count").toBeUndefined();
    expect(again.get("tok-a", "coffee")).toBeUndefined();
    again.close();
  });

  it("keeps the first count stored for a text: another writer's later count is ignored", () => {
    const cache = TokenCountCache.open(freshFile());
    cache.put("tok-a", [{ text: "tea", count: 1 }]);
    cache.put("tok-a", [{ text: "tea", count: 9 }]);
    expect(cache.get("tok-a", "tea")).toBe(1);
    cache.close();
  });

  it("refuses a stored count whose row was changed: its checksum no longer matches", () => {
    const file = freshFile();
    const cache = TokenCountCache.open(file);
    cache.put("tok-a", [{ text: "tea", count: 1 }]);
    cache.close();
    const db = new Database(file);
    db.exec("UPDATE counts SET count = 2");
    db.close();
    const damaged = TokenCountCache.open(file);
    expect(() => damaged.get("tok-a", "tea")).toThrow(new FileError(file, "is damaged: a stored token count does not match its checksum; delete it, and the next run rebuilds it"));
    damaged.close();
  });

  it("refuses a file whose pages are damaged with one line: SQLite's first problem, not its whole report", () => {
    const file = freshFile();
    const cache = TokenCountCache.open(file);
    cache.put("tok-a", Array.from({ length: 3000 }, (_, i) => ({ text: `text number ${i} with some words`, count: i })));
    cache.close();
    damagePages(file, [3, 4, 5, 6], "cell pointers");
    expect(() => TokenCountCache.open(file)).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/: is damaged \(SQLite's quick_check: Tree \d+ page \d+ cell \d+: [^\n;]+\); delete it, and the next run rebuilds it$/),
      }),
    );
  });

  it("refuses an SQLite file of something else, and leaves it as it was", () => {
    const file = freshFile();
    const db = new Database(file);
    db.exec("CREATE TABLE contacts (name TEXT)");
    db.close();
    expect(() => TokenCountCache.open(file)).toThrow(new FileError(file, "is an SQLite file of something else, not a token-count cache: move it away, and the next run makes its cache there"));
  });
});

describe("cachingCounter", () => {
  it("counts each distinct text once, and without a cache file writes nothing", () => {
    const { seen, tokenizer } = fakeTokenizer();
    const counter = cachingCounter(tokenizer);
    expect(["tea", "coffee", "tea"].map((t) => counter.count(t))).toEqual([3, 6, 3]);
    expect(seen.counted).toEqual(["tea", "coffee"]);
    counter.close();
  });

  it("loads the tokenizer only at the first text no cache holds, and never for a warm cache", () => {
    const file = freshFile();
    const cold = fakeTokenizer();
    const first = cachingCounter(cold.tokenizer, file);
    expect(cold.seen.loads, "nothing counted yet").toBe(0);
    expect(["tea", "coffee"].map((t) => first.count(t))).toEqual([3, 6]);
    expect(cold.seen.loads).toBe(1);
    first.close();

    const warm = fakeTokenizer();
    const second = cachingCounter(warm.tokenizer, file);
    expect(["coffee", "tea"].map((t) => second.count(t))).toEqual([6, 3]);
    expect(warm.seen.loads, "every count came from the file").toBe(0);
    expect(second.count("milk")).toBe(4);
    expect(warm.seen).toEqual({ loads: 1, counted: ["milk"] });
    second.close();
  });

  it("stores what it counted only at a flush, in one go", () => {
    const file = freshFile();
    const counter = cachingCounter(fakeTokenizer().tokenizer, file);
    counter.count("tea");
    const reader = TokenCountCache.open(file);
    expect(reader.get("tok-a", "tea"), "before the flush").toBeUndefined();
    counter.flush();
    expect(reader.get("tok-a", "tea")).toBe(3);
    reader.close();
    counter.close();
  });

  it("never serves a count made by another tokenizer", () => {
    const file = freshFile();
    const a = cachingCounter(fakeTokenizer("tok-a").tokenizer, file);
    a.count("tea");
    a.close();
    const other = fakeTokenizer("tok-b");
    const b = cachingCounter(other.tokenizer, file);
    b.count("tea");
    expect(other.seen.counted).toEqual(["tea"]);
    b.close();
  });

  it("opens its cache file only when asked for a count", () => {
    const file = freshFile();
    cachingCounter(fakeTokenizer().tokenizer, file).close();
    expect(existsSync(file)).toBe(false);
  });
});

import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, statSync, truncateSync, writeSync } from "node:fs";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DEFAULT_CACHE_FILE, EmbeddingCache } from "../../../src/model/embedding/cache.js";
import { FileError, RecollectError } from "../../../src/shared/errors.js";
import { REPO_ROOT, repoPath, useTempDir } from "../../harness/temp-files.js";

const temp = useTempDir("recollect-embedding-cache-");
let files = 0;
const freshFile = (name = "cache") => temp.path(`${name}-${++files}.db`);

const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const filled = (dim: number, value: number) => new Float32Array(dim).fill(value);

/** The RecollectError opening `file` throws. */
function openError(file: string): RecollectError {
  let error: unknown;
  try {
    EmbeddingCache.open(file).close();
  } catch (e) {
    error = e;
  }
  expect(error, `expected ${file} to be refused`).toBeInstanceOf(RecollectError);
  return error as RecollectError;
}

/** A closed cache holding `count` 64-dimensional vectors of model m: several pages of a real file. */
function cacheWithVectors(count = 300): string {
  const file = freshFile("full");
  const cache = EmbeddingCache.open(file);
  cache.put("m", Array.from({ length: count }, (_, i) => ({ text: `text ${i}`, vector: filled(64, i) })));
  cache.close();
  return file;
}

describe("EmbeddingCache", () => {
  it("keeps the cache beside the journal by default", () => {
    expect(DEFAULT_CACHE_FILE).toBe(".recollect/embeddings.db");
  });

  it("round-trips vectors exactly, as float32 bytes, across a reopen", () => {
    const file = freshFile();
    // Values a float32 holds exactly, and some it does not: what is stored is the float32's bytes.
    const awkward = Float32Array.from([0.1, -0, 1e-45, -3.4028234663852886e38, Math.PI, Number.NaN, Number.POSITIVE_INFINITY, 1 / 3]);
    // A view into the middle of a larger (shared) buffer: only its own floats are stored.
    const backing = new Float32Array(new SharedArrayBuffer(4 * 16)).fill(9);
    const view = new Float32Array(backing.buffer, 4 * 3, 8);
    view.set([1, 2, 3, 4, 5, 6, 7, 8]);
    const cache = EmbeddingCache.open(file);
    cache.put("m", [
      { text: "awkward", vector: awkward },
      { text: "view", vector: view },
    ]);
    cache.close();

    const again = EmbeddingCache.open(file);
    const [a, v] = again.get("m", ["awkward", "view"]);
    expect(a).toBeInstanceOf(Float32Array);
    expect(bytes(a!).equals(bytes(awkward))).toBe(true);
    expect(Object.is(a![1], -0)).toBe(true);
    expect(Array.from(v!)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(again.dimension("m")).toBe(8);
    expect(again.count("m")).toBe(2);
    again.close();
  });

  it("returns vectors in the order asked, undefined where a text has none, a repeated text each time", () => {
    const cache = EmbeddingCache.open(freshFile());
    cache.put("m", [
      { text: "a", vector: filled(2, 1) },
      { text: "b", vector: filled(2, 2) },
    ]);
    const got = cache.get("m", ["b", "missing", "a", "b"]);
    expect(got.map((v) => (v === undefined ? undefined : Array.from(v)))).toEqual([[2, 2], undefined, [1, 1], [2, 2]]);
    // Texts are told apart exactly: case, spaces and Unicode normal forms all count.
    expect(cache.get("m", ["A", "a ", "é", "e\u0301"])).toEqual([undefined, undefined, undefined, undefined]);
    cache.close();
  });

  it("looks up more texts than SQLite binds in one statement", () => {
    const cache = EmbeddingCache.open(freshFile());
    const texts = Array.from({ length: 1_234 }, (_, i) => `text ${i}`);
    cache.put("m", texts.map((text, i) => ({ text, vector: filled(1, i) })));
    const got = cache.get("m", [...texts, "absent"]);
    expect(got.slice(0, -1).map((v) => v![0])).toEqual(texts.map((_, i) => i));
    expect(got.at(-1)).toBeUndefined();
    cache.close();
  });

  it("keeps each model's vectors apart: a text has one vector per model", () => {
    const cache = EmbeddingCache.open(freshFile());
    cache.put("ollama:a", [{ text: "tea", vector: filled(2, 1) }]);
    cache.put("openai:b", [{ text: "tea", vector: filled(3, 2) }]);
    expect(Array.from(cache.get("ollama:a", ["tea"])[0]!)).toEqual([1, 1]);
    expect(Array.from(cache.get("openai:b", ["tea"])[0]!)).toEqual([2, 2, 2]);
    expect(cache.get("use-lite", ["tea"])).toEqual([undefined]);
    expect([cache.count("ollama:a"), cache.count("openai:b"), cache.count("use-lite")]).toEqual([1, 1, 0]);
    expect([cache.dimension("ollama:a"), cache.dimension("openai:b"), cache.dimension("use-lite")]).toEqual([2, 3, undefined]);
    cache.close();
  });

  it("stores a text once per model: the first writer's vector wins, for every later reader", () => {
    const file = freshFile();
    const first = EmbeddingCache.open(file);
    const second = EmbeddingCache.open(file);
    first.put("m", [{ text: "tea", vector: filled(2, 1) }]);
    second.put("m", [
      { text: "tea", vector: filled(2, 2) },
      { text: "coffee", vector: filled(2, 3) },
    ]);
    first.put("m", [{ text: "coffee", vector: filled(2, 4) }]);
    for (const reader of [first, second, EmbeddingCache.open(file)]) {
      expect(reader.get("m", ["tea", "coffee"]).map((v) => Array.from(v!))).toEqual([
        [1, 1],
        [3, 3],
      ]);
      expect(reader.count("m")).toBe(2);
    }
    first.close();
    second.close();
  });

  it("stores nothing for an empty put", () => {
    const cache = EmbeddingCache.open(freshFile());
    cache.put("m", []);
    expect([cache.count("m"), cache.dimension("m")]).toEqual([0, undefined]);
    cache.close();
  });

  it("creates the folders of its file", () => {
    const file = temp.path(`nested-${++files}/deeper/embeddings.db`);
    EmbeddingCache.open(file).close();
    expect(existsSync(file)).toBe(true);
  });

  it(
    "stores each vector once when two processes embed and store the same texts at the same time, and every reader sees the same one",
    async () => {
      const file = freshFile("shared");
      const texts = Array.from({ length: 200 }, (_, i) => `shared text ${i}`);
      const script = temp.write(
        `writer-${files}.mts`,
        `
${CACHE_IMPORT}
const [file, who, other, textsJson] = process.argv.slice(2);
const texts = JSON.parse(textsJson);
const mine = Number(who);
const cache = EmbeddingCache.open(file);
// Wait for the parent's go, so both processes start writing together.
process.stdout.write("ready\\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
const order = mine === 1 ? texts : [...texts].reverse();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
for (let start = 0; start < order.length; start += 10) {
  cache.put("m", order.slice(start, start + 10).map((text) => ({ text, vector: new Float32Array(4).fill(mine) })));
  if (start === 0) {
    // The other's first batch is in before this one writes any more: the two overlap for sure.
    cache.put("marker", [{ text: who, vector: new Float32Array(1) }]);
    while (cache.get("marker", [other])[0] === undefined) await sleep(2);
  }
  await sleep(1);
}
const seen = cache.get("m", texts).map((v) => Array.from(v));
cache.close();
process.stdout.write(JSON.stringify(seen) + "\\n");
process.stdin.destroy();
`,
      );
      const writers = [1, 2].map((who) => startChild(script, [file, String(who), String(3 - who), JSON.stringify(texts)]));
      await Promise.all(writers.map((w) => w.ready));
      for (const w of writers) w.go();
      const [seen1, seen2] = (await Promise.all(writers.map((w) => w.done))).map((out) => JSON.parse(out) as number[][]);

      const db = new Database(file, { readonly: true });
      const rows = db.prepare("SELECT count(*) AS n, count(DISTINCT hash) AS distinct_hashes FROM vectors WHERE model = 'm'").get() as { n: number; distinct_hashes: number };
      db.close();
      expect(rows).toEqual({ n: texts.length, distinct_hashes: texts.length });
      const reader = EmbeddingCache.open(file);
      const seenHere = reader.get("m", texts).map((v) => Array.from(v!));
      reader.close();
      // One vector per text, whole: all four floats from one writer, never a mix.
      for (const vector of seenHere) expect([[1, 1, 1, 1], [2, 2, 2, 2]]).toContainEqual(vector);
      expect(seen1).toEqual(seenHere);
      expect(seen2).toEqual(seenHere);
    },
    60_000,
  );

  it(
    "lets processes that open a new cache file at the same time all use it",
    async () => {
      const dir = temp.path(`opened-together-${++files}`);
      const script = temp.write(
        `opener-${files}.mts`,
        `
${CACHE_IMPORT}
const [dir, count] = process.argv.slice(2);
process.stdout.write("ready\\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
const refused = [];
for (let i = 0; i < Number(count); i++) {
  try {
    EmbeddingCache.open(\`\${dir}/cache-\${i}.db\`).close();
  } catch (error) {
    refused.push(error.message);
  }
}
process.stdout.write(JSON.stringify(refused) + "\\n");
process.stdin.destroy();
`,
      );
      const openers = [1, 2, 3].map(() => startChild(script, [dir, "200"]));
      await Promise.all(openers.map((o) => o.ready));
      for (const o of openers) o.go();
      const refused = (await Promise.all(openers.map((o) => o.done))).flatMap((out) => JSON.parse(out) as string[]);
      expect(refused).toEqual([]);
    },
    60_000,
  );

  describe("refuses a file it cannot trust with one RecollectError naming it, and leaves the file as it was", () => {
    /** Opens `file`, expects the refusal, and checks the file's bytes did not change. */
    function refused(file: string): string {
      const before = readFileSync(file);
      const error = openError(file);
      expect(error).toBeInstanceOf(FileError);
      const { message } = error;
      expect((error as FileError).file).toBe(file);
      expect(message.startsWith(`${file}: `)).toBe(true);
      expect(readFileSync(file).equals(before), "the refused file was changed").toBe(true);
      return message;
    }
    const DELETE = "; delete it, and the next run rebuilds it";

    it("a file that is not SQLite", () => {
      const file = temp.write(`not-sqlite-${++files}.db`, "these are my notes, not a database\n".repeat(200));
      expect(refused(file)).toBe(`${file}: is damaged or not an embedding cache (file is not a database)${DELETE}`);
    });

    it("an SQLite file of something else", () => {
      const file = freshFile("other");
      const db = new Database(file);
      db.exec("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')");
      db.close();
      expect(refused(file)).toBe(`${file}: is an SQLite file of something else, not an embedding cache: name another cache file (--embedding-cache)`);
      // The other program's data is untouched.
      const after = new Database(file, { readonly: true });
      expect(after.prepare("SELECT name FROM contacts").all()).toEqual([{ name: "Ada" }]);
      after.close();
    });

    it("a cache cut off midway through a page", () => {
      const file = cacheWithVectors();
      const size = statSync(file).size;
      expect(size).toBeGreaterThan(8 * 4096);
      truncateSync(file, Math.floor(size / 2) + 100);
      expect(refused(file)).toMatch(new RegExp(`^${escape(file)}: is damaged.*${escape(DELETE)}$`));
    });

    it("a cache with bytes overwritten in its header or its tree pages", () => {
      for (const [offset, length] of [
        [0, 16],
        [4096 + 8, 100],
      ] as const) {
        const file = cacheWithVectors();
        const fd = openSync(file, "r+");
        writeSync(fd, Buffer.alloc(length, 0xff), 0, length, offset);
        closeSync(fd);
        expect(refused(file)).toMatch(new RegExp(`^${escape(file)}: is damaged.*${escape(DELETE)}$`));
      }
    });

    it("a cache from a newer version, saying to update", () => {
      const file = cacheWithVectors(3);
      const db = new Database(file);
      db.pragma("user_version = 2");
      db.close();
      expect(refused(file)).toBe(`${file}: is an embedding cache of a newer recollect (version 2; this one reads 1): update recollect, or name another cache file`);
    });

    it("a path that cannot be a file", () => {
      const dir = temp.path(`a-folder-${++files}`);
      EmbeddingCache.open(`${dir}/x.db`).close();
      const { message } = openError(dir);
      expect(message).toMatch(new RegExp(`^${escape(dir)}: cannot be opened as an embedding cache \\(.*\\)${escape(DELETE)}$`));
    });
  });

  describe("never mixes vectors of two dimensions under one model", () => {
    it("refuses new vectors of another dimension than stored, naming file, model and both dimensions, and stores none of them", () => {
      const file = freshFile();
      const cache = EmbeddingCache.open(file);
      cache.put("ollama:nomic-embed-text", [{ text: "tea", vector: filled(768, 1) }]);
      const other = EmbeddingCache.open(file);
      let error: unknown;
      try {
        other.put("ollama:nomic-embed-text", [
          { text: "coffee", vector: filled(1024, 2) },
          { text: "milk", vector: filled(1024, 3) },
        ]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RecollectError);
      expect((error as RecollectError).message).toBe(
        `${file}: holds 768-dimensional vectors of "ollama:nomic-embed-text", but 1024-dimensional ones came with them: delete the cache (it is rebuilt on the next run), or give a changed model another id`,
      );
      expect(other.get("ollama:nomic-embed-text", ["tea", "coffee", "milk"]).map((v) => v?.length)).toEqual([768, undefined, undefined]);
      expect(other.count("ollama:nomic-embed-text")).toBe(1);
      expect(other.dimension("ollama:nomic-embed-text")).toBe(768);
      cache.close();
      other.close();
    });

    it("refuses one batch of two dimensions, storing none of it", () => {
      const cache = EmbeddingCache.open(freshFile());
      expect(() =>
        cache.put("m", [
          { text: "a", vector: filled(2, 1) },
          { text: "b", vector: filled(3, 1) },
        ]),
      ).toThrow('model "m" returned vectors of 2 and 3 dimensions in one batch');
      expect([cache.count("m"), cache.dimension("m")]).toEqual([0, undefined]);
      cache.close();
    });

    it("refuses a stored vector whose bytes were changed (by hand, or by damage inside a sound file): its checksum no longer matches", () => {
      for (const changed of [filled(3, 1), filled(2, 1.5)]) {
        const file = freshFile();
        const cache = EmbeddingCache.open(file);
        cache.put("m", [{ text: "a", vector: filled(2, 1) }]);
        const db = new Database(file);
        db.prepare("UPDATE vectors SET vector = ? WHERE model = 'm'").run(bytes(changed));
        db.close();
        expect(() => cache.get("m", ["a"])).toThrow(new FileError(file, `is damaged: a stored vector of "m" does not match its checksum; delete it, and the next run rebuilds it`));
        cache.close();
      }
    });
  });
});

/**
 * A `node --import tsx` child running `script` with `args`: it prints "ready", waits for a line on
 * stdin, does its work and prints one line of JSON, which `done` resolves to.
 */
function startChild(script: string, args: string[]) {
  const proc = spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: REPO_ROOT, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", resolve));
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.startsWith("ready\n")) resolve();
    });
    void exited.then((code) => reject(new Error(`${script} exited with ${code} before it was ready: ${err}`)));
  });
  const done = exited.then((code) => {
    if (code !== 0) throw new Error(`${script} exited with ${code}: ${err}`);
    return out.split("\n")[1]!;
  });
  return { ready, done, go: () => proc.stdin.write("go\n") };
}

/** The script's import of the cache, from the repository. */
const CACHE_IMPORT = `import { EmbeddingCache } from ${JSON.stringify(pathToFileURL(repoPath("src/model/embedding/cache.ts")).href)};`;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type { Embedder } from "../../../src/model/embedder.js";
import { loadUseLite, USE_LITE_MODEL } from "../../../src/model/embedding/use-lite.js";
import { REPO_ROOT, repoPath, useTempDir } from "../../harness/temp-files.js";

const PUPPY = "I adopted a puppy last week";
const DOG = "We got a new dog";
const STOCKS = "The stock market fell today";

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(na * nb);
};
const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

let encoder: Embedder;
let vectors: Float32Array[];
beforeAll(async () => {
  encoder = await loadUseLite();
  vectors = await encoder.embed([PUPPY, DOG, STOCKS]);
});

describe("use-lite, the in-process sentence encoder", () => {
  it("records its vectors as use-lite", () => {
    expect(encoder.model).toBe(USE_LITE_MODEL);
    expect(USE_LITE_MODEL).toBe("use-lite");
  });

  it("gives one 512-dimensional Float32Array of finite, non-zero numbers per text, in order", () => {
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(512);
      expect(vector.every(Number.isFinite)).toBe(true);
      expect(vector.some((x) => x !== 0)).toBe(true);
    }
    // Three different texts, three different vectors.
    expect(bytes(vectors[0]!).equals(bytes(vectors[1]!))).toBe(false);
    expect(bytes(vectors[1]!).equals(bytes(vectors[2]!))).toBe(false);
  });

  it("puts a related pair well above an unrelated one, with no word in common", () => {
    const related = cosine(vectors[0]!, vectors[1]!);
    const unrelated = [cosine(vectors[0]!, vectors[2]!), cosine(vectors[1]!, vectors[2]!)];
    for (const u of unrelated) expect(related - u).toBeGreaterThan(0.3);
  });

  it("gives a text bit-identical vectors in two calls, alone or among other texts", async () => {
    const [alone] = await encoder.embed([DOG]);
    const among = await encoder.embed([STOCKS, DOG, "Completely different words here"]);
    expect(bytes(alone!).equals(bytes(vectors[1]!))).toBe(true);
    expect(bytes(among[1]!).equals(bytes(vectors[1]!))).toBe(true);
    expect(bytes(among[0]!).equals(bytes(vectors[2]!))).toBe(true);
  });

  it("embeds no texts as no vectors", async () => {
    expect(await encoder.embed([])).toEqual([]);
  });

  it("gives the same bits on one thread and on two, over chunks of texts of many lengths", async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `${"word ".repeat(1 + (i % 7))}number ${i} ${i % 3 === 0 ? "and a dog" : "on a train"}`);
    const one = await loadUseLite({ threads: 1 });
    const two = await loadUseLite({ threads: 2 });
    try {
      const [a, b] = await Promise.all([one.embed(texts), two.embed(texts)]);
      expect(a).toHaveLength(300);
      expect(b).toHaveLength(300);
      for (let i = 0; i < texts.length; i++) expect(bytes(a[i]!).equals(bytes(b[i]!))).toBe(true);
      const [alone] = await one.embed([texts[123]!]);
      expect(bytes(alone!).equals(bytes(b[123]!))).toBe(true);
    } finally {
      await Promise.all([one.close?.(), two.close?.()]);
    }
  });

  it("refuses to embed once closed", async () => {
    const encoder = await loadUseLite({ threads: 1 });
    await encoder.close?.();
    await expect(encoder.embed(["a dog"])).rejects.toThrow(/closed/);
  });
});

/**
 * The encoder in a process of its own, its WebAssembly troubled as WASM_TROUBLE says (see the
 * preload): what it printed, what it wrote to stderr, and how many threads tried to start it.
 */
const temp = useTempDir();
let runs = 0;
async function embedADog(trouble: "slow" | "fail-once" | "fail" | "exit", threadCount: number) {
  const threads = temp.write(`threads-${++runs}`, "");
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ["--import", repoPath("test/fixtures/encoder/wasm-trouble.mjs"), "--import", "tsx", repoPath("test/fixtures/encoder/embed-a-dog.ts"), String(threadCount)],
    { cwd: REPO_ROOT, env: { ...process.env, WASM_TROUBLE: trouble, WASM_THREADS: threads } },
  );
  const printed = JSON.parse(stdout) as { vector?: string; error?: string; userError?: boolean };
  const started = new Set(readFileSync(threads, "utf8").split("\n").filter((l) => l !== ""));
  return { ...printed, stderr, started: started.size };
}

describe("use-lite when its WebAssembly backend is slow or fails to start", () => {
  let aDog: string;
  beforeAll(async () => {
    const [vector] = await encoder.embed(["a dog"]);
    aDog = bytes(vector!).toString("base64");
  });

  it("waits for the backend before the model's weights become tensors, however long it takes to start", async () => {
    const run = await embedADog("slow", 2);
    expect(run.error).toBeUndefined();
    expect(run.vector).toBe(aDog);
    expect(run.started).toBe(2);
    expect(run.stderr).toBe("");
  });

  it("starts a thread again when its backend fails once, and embeds as usual", async () => {
    const run = await embedADog("fail-once", 1);
    expect(run.error).toBeUndefined();
    expect(run.vector).toBe(aDog);
    expect(run.started).toBe(2);
    expect(run.stderr).toBe("");
  });

  it("gives up after a second failure with one line naming the encoder, the backend and its reason, and prints nothing else", async () => {
    const run = await embedADog("fail", 1);
    expect(run.vector).toBeUndefined();
    expect(run.userError).toBe(true);
    expect(run.error).toMatch(
      /^the in-process encoder use-lite could not start, twice: TensorFlow\.js's WebAssembly backend did not start \(.*WebAssembly\.Memory\(\): could not allocate memory.*\): run again on a less busy machine, or embed with a server \(an ollama: or openai: model\)$/,
    );
    expect(run.error).not.toContain("\n");
    expect(run.started).toBe(2);
    expect(run.stderr).toBe("");
  });

  it("counts a thread that stops before it is ready as one that failed to start", async () => {
    const run = await embedADog("exit", 1);
    expect(run.userError).toBe(true);
    expect(run.error).toMatch(/^the in-process encoder use-lite could not start, twice: its thread stopped with exit code 3: /);
    expect(run.started).toBe(2);
  });

  it("tries each of its threads twice before it gives up", async () => {
    const run = await embedADog("fail", 2);
    expect(run.userError).toBe(true);
    expect(run.started).toBe(4);
  });
});

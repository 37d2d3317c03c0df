import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readLines } from "../../../src/datasets/conversations/lines.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { useTempDir } from "../../harness/temp-files.js";
import { writeBytes } from "./build.js";

const temp = useTempDir();

async function lines(path: string, max?: number): Promise<{ lines: [number, string][]; sha256: string }> {
  const source = readLines(path, path, max);
  const out: [number, string][] = [];
  for await (const line of source.lines) out.push([line.number, line.text]);
  return { lines: out, sha256: source.sha256() };
}

async function failure(path: string, max?: number): Promise<string> {
  const error = await lines(path, max).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RecollectError);
  return (error as RecollectError).message;
}

const TEXT = '\uFEFF{"a": 1}\r\n\n{"b": "é"}\n  \n{"c": 3}';

describe("readLines", () => {
  it("gives each line with its number: a BOM and CR line ends removed, blank lines kept, the last line without a newline read", async () => {
    const path = writeBytes(temp, "plain.jsonl", Buffer.from(TEXT));
    expect((await lines(path)).lines).toEqual([
      [1, '{"a": 1}'],
      [2, ""],
      [3, '{"b": "é"}'],
      [4, "  "],
      [5, '{"c": 3}'],
    ]);
  });

  it("reads gzip by its magic bytes, whatever the name, and hashes the bytes as stored", async () => {
    const gz = writeBytes(temp, "packed.data", gzipSync(TEXT));
    const read = await lines(gz);
    expect(read.lines.map(([, text]) => text)).toEqual(['{"a": 1}', "", '{"b": "é"}', "  ", '{"c": 3}']);
    expect(read.sha256).toBe(createHash("sha256").update(readFileSync(gz)).digest("hex"));
  });

  it("splits lines correctly whatever the chunk boundaries (a file larger than one read)", async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `{"n": ${i}, "pad": "${"x".repeat(i % 37)}"}`);
    const read = await lines(writeBytes(temp, "many.jsonl", Buffer.from(many.join("\n"))));
    expect(read.lines).toHaveLength(many.length);
    expect(read.lines.every(([n, text]) => text === many[n - 1])).toBe(true);
  });

  it("refuses bytes that are not UTF-8, naming the line", async () => {
    const path = writeBytes(temp, "latin1.jsonl", Buffer.concat([Buffer.from('{"a": 1}\n{"b": "'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    expect(await failure(path)).toBe(`${path}:2: not valid UTF-8`);
  });

  it("refuses a line over the limit before decoding it", async () => {
    const path = writeBytes(temp, "long.jsonl", Buffer.from(`{"a": 1}\n${"x".repeat(5_000)}\n`));
    expect(await failure(path, 1_000)).toBe(`${path}:2: line longer than 1000 bytes; a line holds one conversation, and no more`);
  });

  it("refuses a damaged gzip file, a missing file and a folder", async () => {
    const gz = gzipSync(TEXT.repeat(50));
    const damaged = writeBytes(temp, "damaged.jsonl.gz", gz.subarray(0, gz.length - 20));
    expect(await failure(damaged)).toMatch(new RegExp(`^${damaged.replace(/[.]/g, "\\.")}: not a valid gzip file \\(`));
    expect(await failure(temp.path("absent.jsonl"))).toBe(`${temp.path("absent.jsonl")}: data file not found`);
    expect(await failure(temp.dir)).toBe(`${temp.dir}: is a folder, not a file; name a conversation JSON Lines file`);
  });

  it("refuses a FIFO without opening it, and /dev/zero, which never ends", async () => {
    const fifo = temp.path("pipe.jsonl");
    execFileSync("mkfifo", [fifo]);
    // Opening the FIFO would wait for a writer, and the test would time out.
    expect(await failure(fifo)).toBe(`${fifo}: is not a regular file (a FIFO); name a conversation JSON Lines file`);
    expect(await failure("/dev/zero")).toBe("/dev/zero: is not a regular file (a character device); name a conversation JSON Lines file");
  });
});

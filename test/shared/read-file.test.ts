import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { kindOf, readTextFile, SIZE_LIMITS } from "../../src/shared/read-file.js";
import { useTempDir } from "../harness/temp-files.js";
import { userError } from "../helpers/user-error.js";

const temp = useTempDir();
const read = (file: string, maxBytes = 1024) => readTextFile(file, { maxBytes, what: "experiment file" });

describe("readTextFile", () => {
  it("reads UTF-8 text", () => {
    expect(read(temp.write("ok.yaml", "name: café\n"))).toBe("name: café\n");
  });

  it("names a file that does not exist", () => {
    const file = temp.path("absent.yaml");
    expect(userError(() => read(file)).message).toBe(`${file}: file not found`);
  });

  it("names a directory given as a file, instead of failing with EISDIR", () => {
    const dir = temp.path("a-folder.yaml");
    mkdirSync(dir);
    expect(userError(() => read(dir)).message).toBe(`${dir}: is a directory, not an experiment file`);
  });

  it("refuses a device or pipe, which is not a regular file", () => {
    expect(userError(() => read("/dev/null")).message).toBe("/dev/null: is not a regular file, so it cannot be an experiment file");
  });

  it("refuses an empty file by its size", () => {
    const file = temp.write("zero.yaml", "");
    expect(userError(() => read(file)).message).toBe(`${file}: is empty (0 bytes), not an experiment file`);
  });

  it("refuses a file over the limit before reading it", () => {
    const file = temp.write("big.yaml", "x".repeat(2049));
    expect(userError(() => read(file)).message).toBe(`${file}: is 2 KiB, over the 1 KiB limit for an experiment file`);
    const barely = temp.write("barely.yaml", "x".repeat(1025));
    expect(userError(() => read(barely)).message).toBe(`${barely}: is 1025 bytes, over the 1024-byte limit for an experiment file`);
  });

  it("refuses bytes that are not UTF-8", () => {
    const file = temp.path("binary.yaml");
    writeFileSync(file, Buffer.from([0x6e, 0x61, 0xff, 0xfe, 0x00]));
    expect(userError(() => read(file)).message).toBe(`${file}: is not UTF-8 text, so it cannot be an experiment file`);
  });

  it.skipIf(process.getuid?.() === 0)("names a file it may not read (permission denied)", () => {
    const file = temp.write("secret.yaml", "a: 1\n");
    chmodSync(file, 0o000);
    expect(userError(() => read(file)).message).toBe(`${file}: cannot be read (permission denied)`);
  });

  it("documents its limits: 8 MiB of YAML, 256 MiB of JSON, 1 MiB for a policy preset", () => {
    expect(SIZE_LIMITS).toEqual({ yaml: 8 * 1024 * 1024, json: 256 * 1024 * 1024, policy: 1024 * 1024 });
  });
});

describe("kindOf", () => {
  it("names what a path is, by stat alone", () => {
    const fifo = temp.path("pipe");
    execFileSync("mkfifo", [fifo]);
    expect(kindOf(statSync(temp.write("plain.txt", "x")))).toBe("a file");
    expect(kindOf(statSync(temp.dir))).toBe("a folder");
    expect(kindOf(statSync(fifo))).toBe("a FIFO");
    expect(kindOf(statSync("/dev/zero"))).toBe("a character device");
  });
});

import { describe, expect, it } from "vitest";
import {
  FileError,
  fileError,
  flagError,
  formatBytes,
  isRecollectError,
  plural,
  RecollectError,
  unreadableFile,
  unwritableFile,
  UsageError,
  userError,
} from "../../src/shared/errors.js";

describe("RecollectError and its kinds", () => {
  it("a file error is a RecollectError that names its file", () => {
    const error = fileError("a.yaml", "is empty");
    expect(error).toBeInstanceOf(FileError);
    expect(error).toBeInstanceOf(RecollectError);
    expect(isRecollectError(error)).toBe(true);
    expect(error.name).toBe("FileError");
    expect(error.file).toBe("a.yaml");
    expect(error.message).toBe("a.yaml: is empty");
  });

  it("a flag error is a usage error that names its flag", () => {
    const error = flagError("--workers", "a whole number of at least 1", 0);
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toBeInstanceOf(RecollectError);
    expect(error.name).toBe("UsageError");
    expect(error.flag).toBe("--workers");
    expect(new UsageError("unknown argument: x").flag).toBeUndefined();
  });

  it("a problem of no one file is a plain RecollectError", () => {
    const error = userError("memory scope is empty");
    expect(error.constructor).toBe(RecollectError);
    expect(error.name).toBe("RecollectError");
    expect(error.message).toBe("memory scope is empty");
  });

  it("keeps the error it wraps as its cause, the standard way", () => {
    const sqlite = new Error("file is not a database");
    expect(fileError("m.sqlite", "cannot be used", { cause: sqlite }).cause).toBe(sqlite);
    expect(userError("a trial failed", { cause: sqlite }).cause).toBe(sqlite);
    expect(new UsageError("bad", { cause: sqlite, flag: "--x" }).cause).toBe(sqlite);
    const denied = Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    expect(unreadableFile("f", denied).cause).toBe(denied);
    expect(unwritableFile("f", denied)!.cause).toBe(denied);
    expect(fileError("f", "made, not wrapped")).not.toHaveProperty("cause");
  });

  it("tells a RecollectError from anything else thrown", () => {
    expect(isRecollectError(new Error("x"))).toBe(false);
    expect(isRecollectError("x")).toBe(false);
  });

  it("is always one line: a line break from a file name or an excerpt is shown as its escape", () => {
    expect(fileError("a\nb.yaml", "bad\r\nvalue\u2028x\u2029y\u0085z\vw\fv").message).toBe("a\\nb.yaml: bad\\r\\nvalue\\u2028x\\u2029y\\u0085z\\vw\\fv");
    expect(userError("one\ntwo").message).not.toMatch(/[\n\r\u2028\u2029]/);
  });

  it("says what a flag expects and what it got", () => {
    expect(flagError("--workers", "a whole number of at least 1", 0).message).toBe('--workers expects a whole number of at least 1, got "0"');
  });

  it("puts an unreadable file's errno in words", () => {
    expect(unreadableFile("f", Object.assign(new Error("x"), { code: "EACCES" })).message).toBe("f: cannot be read (permission denied)");
    expect(unreadableFile("f", Object.assign(new Error("x"), { code: "EXDEV" })).message).toBe("f: cannot be read (EXDEV)");
  });

  it("names a file that cannot be written, and leaves other errors to be bugs", () => {
    expect(unwritableFile("out/r.json", Object.assign(new Error("x"), { code: "EROFS" }))!.message).toBe("out/r.json: cannot be written (the file system is read-only)");
    expect(unwritableFile("out/r.json", new TypeError("not a system error"))).toBeUndefined();
  });
});

describe("plural and formatBytes", () => {
  it("agree counts with their nouns", () => {
    expect(plural(1, "trial")).toBe("1 trial");
    expect(plural(0, "shard")).toBe("0 shards");
    expect(plural(2, "difference")).toBe("2 differences");
  });

  it("write sizes as a reader would", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(17)).toBe("17 bytes");
    expect(formatBytes(8 * 1024 * 1024)).toBe("8 MiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
  });
});

import { describe, expect, it } from "vitest";
import { fileError, flagError, formatBytes, plural, unreadableFile, unwritableFile, UserError, userError } from "../../src/shared/errors.js";

describe("UserError", () => {
  it("exits 2 and keeps its subject", () => {
    const error = fileError("a.yaml", "is empty");
    expect(error).toBeInstanceOf(UserError);
    expect(error.exitCode).toBe(2);
    expect(error.subject).toBe("a.yaml");
    expect(error.message).toBe("a.yaml: is empty");
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

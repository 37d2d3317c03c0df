import { describe, expect, it } from "vitest";
import { EXIT_CODES, exitCodeOf } from "../../src/cli/exit-codes.js";
import { ModelError, serverDown } from "../../src/model/errors.js";
import { fileError, flagError, RecollectError, UsageError, userError } from "../../src/shared/errors.js";

describe("exit codes", () => {
  it("are 1 for a failed check and 2 for refused input", () => {
    expect(EXIT_CODES).toEqual({ checkFailed: 1, refused: 2 });
  });

  it("give every kind of RecollectError exit 2", () => {
    const kinds: RecollectError[] = [
      userError("memory scope is empty"),
      fileError("a.yaml", "file not found"),
      flagError("--workers", "a whole number of at least 1", 0),
      new UsageError("Unknown argument: x"),
      serverDown("http://127.0.0.1:11434"),
      new ModelError("x.json: no such recording set", "recordings", { file: "x.json" }),
    ];
    for (const error of kinds) expect(exitCodeOf(error), error.name).toBe(2);
  });

  it("give a bug none, so it reaches Node with its stack trace", () => {
    expect(exitCodeOf(new Error("x is undefined"))).toBeUndefined();
    expect(exitCodeOf(new TypeError("cannot read properties of undefined"))).toBeUndefined();
    expect(exitCodeOf("a thrown string")).toBeUndefined();
    // A library error wrapped by a bug is still a bug: the wrapper decides, not its cause.
    expect(exitCodeOf(new Error("while loading", { cause: fileError("a.yaml", "file not found") }))).toBeUndefined();
  });
});

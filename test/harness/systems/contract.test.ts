import { describe, expect, it } from "vitest";
import { SystemError } from "../../../src/harness/systems/contract.js";

describe("SystemError", () => {
  it("names the call and the problem, and reads as one", () => {
    const error = new SystemError("retrieve", "returned an id it was never given: \"x\"");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("SystemError");
    expect(error.call).toBe("retrieve");
    expect(error.problem).toBe('returned an id it was never given: "x"');
    expect(error.message).toBe('retrieve: returned an id it was never given: "x"');
  });

  it("keeps the error it was caused by", () => {
    const cause = new Error("ECONNRESET");
    expect(new SystemError("write", "failed", { cause }).cause).toBe(cause);
  });
});

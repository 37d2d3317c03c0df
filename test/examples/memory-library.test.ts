import { describe, expect, it } from "vitest";
import { rememberAndRetrieve } from "../../examples/memory-library/remember-and-retrieve.js";

describe("examples/memory-library", () => {
  it("retrieves the correction in place of the memory it corrects, through the public API alone", async () => {
    const { kept, text } = await rememberAndRetrieve();
    expect(kept).toContain("moved");
    expect(kept).not.toContain("home");
    expect(text).toContain("Ana lives in Lisbon now.");
  });
});

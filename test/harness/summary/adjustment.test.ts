import { describe, expect, it } from "vitest";
import { adjustmentName } from "../../../src/harness/summary/adjustment.js";

describe("adjustmentName", () => {
  it("names the adjustment a comparison's adjusted p came from, as the reports write it", () => {
    expect(adjustmentName({ adjustment: "westfall-young" })).toBe("Westfall–Young");
    expect(adjustmentName({ adjustment: "holm" })).toBe("Holm");
  });

  it("takes a comparison built by hand, with no adjustment recorded, as Holm's", () => {
    expect(adjustmentName({})).toBe("Holm");
  });
});

import { describe, expect, it } from "vitest";
import { askTime } from "../../../src/datasets/conversations/ask-time.js";

const last = Date.UTC(2023, 4, 15);
const question = (askedAt?: string) => ({ id: "q", text: "?", evidence: ["t"], ...(askedAt ? { askedAt } : {}) });

describe("askTime under the end protocol", () => {
  it("asks after the last session by default", () => {
    expect(askTime(question(), { lastSession: last }, "end")).toEqual({ at: last, clamped: false });
  });

  it("honours an askedAt at or after the last session", () => {
    expect(askTime(question("2023-05-15"), { lastSession: last }, "end")).toEqual({ at: last, clamped: false });
    expect(askTime(question("2023-05-16T10:00:00Z"), { lastSession: last }, "end")).toEqual({ at: Date.UTC(2023, 4, 16, 10), clamped: false });
  });

  it("moves an earlier askedAt to the last session, and says so", () => {
    expect(askTime(question("2023-05-01"), { lastSession: last }, "end")).toEqual({ at: last, clamped: true });
  });
});

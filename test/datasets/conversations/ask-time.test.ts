import { describe, expect, it } from "vitest";
import { askTime } from "../../../src/datasets/conversations/ask-time.js";

const evidence = Date.UTC(2023, 4, 1);
const last = Date.UTC(2023, 4, 15);
const times = { lastSession: last, newestEvidence: evidence, conversation: "c" };
const question = (askedAt?: string, id = "q") => ({ id, text: "?", evidence: ["t"], ...(askedAt ? { askedAt } : {}) });
const end = { protocol: "end", seed: 1 } as const;
const online = { protocol: "online", seed: 1 } as const;

describe("askTime under the end protocol", () => {
  it("asks after the last session by default", () => {
    expect(askTime(question(), times, end)).toEqual({ at: last, clamped: false });
  });

  it("honours an askedAt at or after the last session", () => {
    expect(askTime(question("2023-05-15"), times, end)).toEqual({ at: last, clamped: false });
    expect(askTime(question("2023-05-16T10:00:00Z"), times, end)).toEqual({ at: Date.UTC(2023, 4, 16, 10), clamped: false });
  });

  it("moves an earlier askedAt to the last session, and says so", () => {
    expect(askTime(question("2023-05-01"), times, end)).toEqual({ at: last, clamped: true });
  });
});

describe("askTime under the online protocol", () => {
  it("asks between the newest evidence and the last session, uniformly, the same way every time", () => {
    const draws = Array.from({ length: 400 }, (_, i) => askTime(question(undefined, `q${i}`), times, online).at);
    for (const at of draws) {
      expect(at).toBeGreaterThanOrEqual(evidence);
      expect(at).toBeLessThanOrEqual(last);
    }
    // Uniform: about half the draws fall in the first half of the window.
    const firstHalf = draws.filter((at) => at < (evidence + last) / 2).length / draws.length;
    expect(firstHalf).toBeGreaterThan(0.43);
    expect(firstHalf).toBeLessThan(0.57);
    expect(askTime(question(undefined, "q7"), times, online)).toEqual(askTime(question(undefined, "q7"), times, online));
  });

  it("draws per question, conversation and protocol seed", () => {
    const at = (id: string, conversation = "c", seed = 1) => askTime(question(undefined, id), { ...times, conversation }, { protocol: "online", seed }).at;
    expect(at("a")).not.toBe(at("b"));
    expect(at("a")).not.toBe(at("a", "d"));
    expect(at("a")).not.toBe(at("a", "c", 2));
  });

  it("asks a question with its own askedAt then, moved up to its newest evidence if earlier", () => {
    expect(askTime(question("2023-05-10"), times, online)).toEqual({ at: Date.UTC(2023, 4, 10), clamped: false });
    expect(askTime(question("2023-04-20"), times, online)).toEqual({ at: evidence, clamped: true });
  });
});

describe("askTime under the immediate protocol", () => {
  it("asks right after the session that holds the newest evidence, whatever askedAt says", () => {
    expect(askTime(question(), times, { protocol: "immediate", seed: 1 })).toEqual({ at: evidence, clamped: false });
    expect(askTime(question("2023-05-10"), times, { protocol: "immediate", seed: 1 })).toEqual({ at: evidence, clamped: false });
  });
});

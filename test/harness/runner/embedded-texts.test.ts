import { describe, expect, it } from "vitest";
import { turnText } from "../../../src/memory/index.js";
import { embeddedTexts } from "../../../src/harness/runner/embedded-texts.js";
import { scenarioSchema } from "../../../src/harness/scenario/schema.js";

const scenario = scenarioSchema.parse({
  name: "texts",
  description: "memories, a correction, two asks (one asked twice), distractors",
  steps: [
    { remember: [{ id: "tea", kind: "semantic", text: "The user likes tea." }, { id: "city", kind: "semantic", text: "The user lives in Lisbon." }] },
    { ask: { id: "q1", query: "What does the user drink?", expect: ["tea"] } },
    { advance: "1d" },
    { remember: { id: "moved", kind: "semantic", text: "The user moved to Porto.", corrects: "city" } },
    // The same text written again and asked again: embedded once.
    { remember: { id: "tea-again", kind: "episodic", text: "The user likes tea." } },
    { ask: { id: "q2", query: "Where does the user live?", expect: ["moved"] } },
    { ask: { id: "q3", query: "What does the user drink?", expect: ["tea"] } },
  ],
  pool: [{ kind: "semantic", text: "The sky was grey." }, { kind: "episodic", text: "The user likes tea." }, { kind: "episodic", text: "A bus went by." }],
});

describe("embeddedTexts", () => {
  it("lists each memory's, question's and distractor's text once, in timeline order, distractors last", () => {
    expect(embeddedTexts(scenario, false)).toEqual([
      "The user likes tea.",
      "The user lives in Lisbon.",
      "What does the user drink?",
      "The user moved to Porto.",
      "Where does the user live?",
      "The sky was grey.",
      "A bus went by.",
    ]);
  });

  it("adds each question as it is written back when the trial writes back, after the question itself", () => {
    expect(embeddedTexts(scenario, true)).toEqual([
      "The user likes tea.",
      "The user lives in Lisbon.",
      "What does the user drink?",
      turnText({ user: "What does the user drink?" }),
      "The user moved to Porto.",
      "Where does the user live?",
      turnText({ user: "Where does the user live?" }),
      "The sky was grey.",
      "A bus went by.",
    ]);
    expect(turnText({ user: "Where does the user live?" })).toBe("User asked: Where does the user live?");
  });
});

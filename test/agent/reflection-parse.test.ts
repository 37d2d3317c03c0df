import { describe, expect, it } from "vitest";
import { parseInsights, parseQuestions } from "../../src/agent/reflection-parse.js";

describe("parseQuestions", () => {
  it("strips numbering, bullets and bold, and skips a preamble", () => {
    const reply = [
      "Here are 3 questions:",
      "1) What is Klaus passionate about?",
      "2. **How does Klaus spend his evenings?**",
      "- Who does Klaus trust?",
      "Q4: What does Klaus fear?",
    ].join("\n");
    expect(parseQuestions(reply, 3)).toEqual([
      "What is Klaus passionate about?",
      "How does Klaus spend his evenings?",
      "Who does Klaus trust?",
    ]);
  });

  it("keeps lines without question marks when the model wrote none", () => {
    expect(parseQuestions("1. Klaus's research focus\n2. Klaus's friends", 3)).toEqual([
      "Klaus's research focus",
      "Klaus's friends",
    ]);
  });

  it("drops repeats and blank lines", () => {
    expect(parseQuestions("What next?\n\nWhat next?\nWhy?", 5)).toEqual(["What next?", "Why?"]);
  });
});

describe("parseInsights", () => {
  it("reads the Generative Agents example format", () => {
    expect(parseInsights("1. Klaus is dedicated to his research (because of 1, 5, 3)")).toEqual([
      { text: "Klaus is dedicated to his research", evidence: [1, 5, 3] },
    ]);
  });

  it.each([
    ["2. Klaus likes coffee (because of 2 and 4).", "Klaus likes coffee.", [2, 4]],
    ["- **Klaus likes coffee** (because of statements 2, 4)", "Klaus likes coffee", [2, 4]],
    ["Klaus likes coffee [because of 4, 2, 4]", "Klaus likes coffee", [4, 2]],
    ["Klaus likes coffee (evidence: 7)", "Klaus likes coffee", [7]],
    ["Klaus likes coffee (based on #2, #3)", "Klaus likes coffee", [2, 3]],
    ["Klaus likes coffee (Because Of 1,2)", "Klaus likes coffee", [1, 2]],
    ["3. Klaus likes coffee because of 1, 5 and 3.", "Klaus likes coffee", [1, 5, 3]],
    ['"Klaus (a student) likes coffee" (because of 6)', "Klaus (a student) likes coffee", [6]],
  ])("reads %j", (line, text, evidence) => {
    expect(parseInsights(line)).toEqual([{ text, evidence }]);
  });

  it("skips lines with no citation, such as a preamble or an empty item", () => {
    const reply = "Here are my insights:\n1. Klaus works hard\n2. Klaus sleeps little (because of 2)\n3. (because of 1)";
    expect(parseInsights(reply)).toEqual([{ text: "Klaus sleeps little", evidence: [2] }]);
  });

  it("reads several insights from one reply", () => {
    const reply = "1. A (because of 1)\n2. B (because of 2, 3)\n3. C (because of 3)";
    expect(parseInsights(reply).map((i) => i.text)).toEqual(["A", "B", "C"]);
  });
});

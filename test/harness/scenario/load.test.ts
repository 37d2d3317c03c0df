import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { globSync } from "tinyglobby";
import { describe, expect, it } from "vitest";
import { loadScenario } from "../../../src/harness/scenario/load.js";
import { writeBackId } from "../../../src/harness/scenario/validate.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { REPO_ROOT, useTempDir } from "../temp-files.js";

const temp = useTempDir();
let counter = 0;

/** Writes a scenario file with the given steps (and any extra top-level lines). */
function scenarioFile(steps: string[], ...extra: string[]): string {
  return temp.write(`s${++counter}.yaml`, ["name: spec", "description: a scenario under test", ...extra, "steps:", ...steps].join("\n"));
}

function loadError(file: string): string {
  try {
    loadScenario(file);
  } catch (error) {
    expect(error).toBeInstanceOf(RecollectError);
    return (error as RecollectError).message;
  }
  throw new Error(`expected ${file} to be refused`);
}

describe("loadScenario", () => {
  it("reads a timeline with its defaults, its origin and the sha256 of its bytes", () => {
    const file = scenarioFile([
      "  - remember: { id: a, kind: semantic, text: Tea }",
      "  - advance: 90m",
      "  - remember:",
      "      - { id: b, kind: episodic, text: Coffee, occurred: -1d, importance: 8 }",
      "      - { id: c, kind: semantic, text: Green tea, corrects: a, expires: 2024-02-01T00:00:00Z }",
      '  - ask: { id: q, query: "What to drink?", expect: [c] }',
    ]);
    const scenario = loadScenario(file);
    expect(scenario.origin).toBe(file);
    expect(scenario.sha256).toBe(createHash("sha256").update(readFileSync(file)).digest("hex"));
    const { spec } = scenario;
    expect(spec).toMatchObject({ scope: "user", start: Date.parse("2024-01-01T00:00:00Z"), pool: [] });
    // Without a rating of its own a memory is unrated: the timeline gives it the midpoint, unperturbed.
    expect(spec.steps[0].remember).toEqual([{ id: "a", kind: "semantic", text: "Tea" }]);
    expect(spec.steps[1].advance).toBe(90 * 60_000);
    expect(spec.steps[2].remember![0].occurred).toEqual({ offset: -86_400_000 });
    expect(spec.steps[2].remember![1].expires).toEqual({ at: Date.parse("2024-02-01T00:00:00Z") });
    expect(spec.steps[3].ask).toMatchObject({ id: "q", expect: ["c"], stale: [], answers: [] });
  });

  it("lets a later ask expect the write-back of an earlier one, by its derived id", () => {
    expect(writeBackId("flights")).toBe("turn:flights");
    const file = scenarioFile([
      "  - remember: { id: a, kind: semantic, text: Oslo }",
      '  - ask: { id: flights, query: "Flights to Oslo?", expect: [a] }',
      '  - ask: { id: yesterday, query: "What did I ask?", expect: ["turn:flights"] }',
    ]);
    expect(loadScenario(file).spec.steps[2].ask!.expect).toEqual(["turn:flights"]);
  });

  it("loads every committed scenario", () => {
    const files = globSync("scenarios/*.yaml", { cwd: REPO_ROOT, absolute: true });
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(() => loadScenario(file), file).not.toThrow();
  });

  describe("refuses a bad file with one message naming the file and the path inside it", () => {
    it("a missing file", () => {
      const file = temp.path("absent.yaml");
      expect(loadError(file)).toBe(`${file}: file not found`);
    });

    it("an importance given as a word", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea, importance: high }"]);
      expect(loadError(file)).toMatch(/: at steps\[0\]\.remember\[0\]\.importance: .*expected number, received string$/);
      expect(loadError(file).startsWith(`${file}: `)).toBe(true);
    });

    it("an importance outside 1–10", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea, importance: 11 }"]);
      expect(loadError(file)).toMatch(new RegExp(`^${escape(file)}: at steps\\[0\\]\\.remember\\[0\\]\\.importance: `));
    });

    it("an unknown memory kind", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: factual, text: Tea }"]);
      expect(loadError(file)).toMatch(new RegExp(`^${escape(file)}: at steps\\[0\\]\\.remember\\[0\\]\\.kind: `));
    });

    it("a duplicate memory id, in one batch or across steps", () => {
      const sameBatch = scenarioFile(["  - remember: [{ id: a, kind: semantic, text: Tea }, { id: a, kind: semantic, text: Coffee }]"]);
      expect(loadError(sameBatch)).toBe(`${sameBatch}: at steps[0].remember[1].id: duplicate memory id "a"`);
      const later = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea }", "  - advance: 1h", "  - remember: { id: a, kind: episodic, text: Coffee }"]);
      expect(loadError(later)).toBe(`${later}: at steps[2].remember[0].id: duplicate memory id "a"`);
    });

    it("a memory id taken from the ids sampled distractors get", () => {
      const file = scenarioFile(["  - remember: { id: 'distractor:0', kind: semantic, text: Tea }"], "pool:", "  - { kind: episodic, text: Noise }");
      expect(loadError(file)).toBe(`${file}: at steps[0].remember[0].id: ids starting with "distractor:" are kept for sampled distractors`);
    });

    it("an ask whose write-back id is already a memory's", () => {
      const file = scenarioFile(["  - remember: { id: 'turn:q', kind: semantic, text: Tea }", "  - ask: { id: q, query: Tea?, expect: ['turn:q'] }"]);
      expect(loadError(file)).toBe(`${file}: at steps[1].ask.id: this ask's write-back would be stored as "turn:q", which is already a memory id`);
    });

    it("a duplicate ask id", () => {
      const file = scenarioFile([
        "  - remember: { id: a, kind: semantic, text: Tea }",
        "  - ask: { id: q, query: one, expect: [a] }",
        "  - ask: { id: q, query: two, expect: [a] }",
      ]);
      expect(loadError(file)).toBe(`${file}: at steps[2].ask.id: duplicate ask id "q"`);
    });

    it("an ask expecting an id that does not exist", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea }", "  - ask: { id: q, query: Tea?, expect: [a, nothing] }"]);
      expect(loadError(file)).toBe(`${file}: at steps[1].ask.expect[1]: "nothing" is not a memory written before this ask`);
    });

    it("an ask expecting an id that is only written later", () => {
      const file = scenarioFile([
        "  - remember: { id: a, kind: semantic, text: Tea }",
        "  - ask: { id: q, query: Coffee?, expect: [b] }",
        "  - remember: { id: b, kind: semantic, text: Coffee }",
      ]);
      expect(loadError(file)).toBe(`${file}: at steps[1].ask.expect[0]: "b" is not a memory written before this ask`);
    });

    it("required and stale ids that are not written before the ask", () => {
      const required = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea }", "  - ask: { id: q, query: Tea?, expect: [a], required: [a, x] }"]);
      expect(loadError(required)).toBe(`${required}: at steps[1].ask.required[1]: "x" is not a memory written before this ask`);
      const stale = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea }", "  - ask: { id: q, query: Tea?, expect: [a], stale: [y] }"]);
      expect(loadError(stale)).toBe(`${stale}: at steps[1].ask.stale[0]: "y" is not a memory written before this ask`);
    });

    it("an ask expecting the write-back of an ask that comes later", () => {
      const file = scenarioFile([
        "  - remember: { id: a, kind: semantic, text: Tea }",
        '  - ask: { id: first, query: Tea?, expect: ["turn:second"] }',
        "  - ask: { id: second, query: Coffee?, expect: [a] }",
      ]);
      expect(loadError(file)).toBe(`${file}: at steps[1].ask.expect[0]: "turn:second" is not a memory written before this ask`);
    });

    it("a correction of a memory that is not written before it", () => {
      const file = scenarioFile(["  - remember: { id: b, kind: semantic, text: Coffee, corrects: a }"]);
      expect(loadError(file)).toBe(`${file}: at steps[0].remember[0].corrects: "a" is not a memory written before this step`);
    });

    it("a negative clock advance", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea }", "  - advance: -2h"]);
      expect(loadError(file)).toBe(`${file}: at steps[1].advance: the clock only moves forward: expected a non-negative duration`);
    });

    it("an advance that is not a duration", () => {
      const file = scenarioFile(["  - advance: 2 days"]);
      expect(loadError(file)).toBe(`${file}: at steps[0].advance: expected a duration such as "90m", "2h" or "3d", got "2 days"`);
    });

    it("a step holding two things at once", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea }", "    advance: 2h"]);
      expect(loadError(file)).toBe(`${file}: at steps[0]: a step holds exactly one of advance, remember or ask`);
    });

    it("an unknown key inside an ask", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea }", "  - ask: { id: q, query: Tea?, expected: [a] }"]);
      expect(loadError(file)).toBe(`${file}: at steps[1].ask: unknown key "expected"`);
    });

    it("a time that is neither an ISO date nor an offset", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: episodic, text: Tea, occurred: yesterday }"]);
      expect(loadError(file)).toMatch(new RegExp(`^${escape(file)}: at steps\\[0\\]\\.remember\\[0\\]\\.occurred: expected an ISO date or an offset`));
    });

    it("a pool distractor with an id of its own (the harness names distractors)", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea }"], "pool:", "  - { id: d, kind: episodic, text: Noise }");
      expect(loadError(file)).toBe(`${file}: at pool[0]: unknown key "id"`);
    });

    it("an advance past the end of the virtual clock", () => {
      const file = scenarioFile(["  - advance: 999999999999d", "  - ask: { id: q, query: q }"]);
      expect(loadError(file)).toBe(`${file}: at steps[0].advance: "999999999999d" is longer than the virtual clock, which runs from year 1 to 9999`);
    });

    it("advances that add up past the end of the virtual clock", () => {
      const file = scenarioFile(["  - advance: 2000000d", "  - advance: 2000000d", "  - ask: { id: q, query: q }"]);
      expect(loadError(file)).toBe(`${file}: at steps[1].advance: this time falls outside the virtual clock, which runs from year 1 to 9999`);
    });

    it("a memory time before the start of the virtual clock", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: episodic, text: Tea, occurred: -900000d }", "  - ask: { id: q, query: q }"]);
      expect(loadError(file)).toBe(`${file}: at steps[0].remember[0].occurred: this time falls outside the virtual clock, which runs from year 1 to 9999`);
    });

    it("a start in year 0", () => {
      const file = scenarioFile(["  - ask: { id: q, query: q }"], "start: 0000-06-01T00:00:00Z");
      expect(loadError(file)).toBe(`${file}: at start: this time falls outside the virtual clock, which runs from year 1 to 9999`);
    });

    it("an answer key that grading would reduce to nothing", () => {
      const file = scenarioFile(['  - ask: { id: q, query: "Which?", answers: [["ok", "The!"]] }']);
      expect(loadError(file)).toBe(`${file}: at steps[0].ask.answers[0][1]: an answer key needs a word other than an article (grading ignores case, punctuation and a, an, the)`);
    });

    it("embeddings of two sizes", () => {
      const file = scenarioFile(["  - remember: { id: a, kind: semantic, text: Tea, embedding: [1, 0] }", '  - ask: { id: q, query: "Tea?", embedding: [1, 0, 0] }']);
      expect(loadError(file)).toBe(`${file}: at steps[1].ask.embedding: an embedding of 3 numbers, but steps[0].remember[0].embedding has 2; one scenario's vectors share one size`);
    });

    it("an empty file", () => {
      const file = temp.write("empty.yaml", "");
      expect(loadError(file)).toBe(`${file}: is empty (0 bytes), not an experiment or scenario file`);
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

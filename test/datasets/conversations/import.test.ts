import { describe, expect, it } from "vitest";
import { importConversations } from "../../../src/datasets/conversations/import.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { useTempDir } from "../../harness/temp-files.js";
import { conversation, writeJsonl } from "./build.js";

const temp = useTempDir();

describe("importConversations", () => {
  it("reads a plain and a gzip-compressed file to the same scenarios and stats", async () => {
    const lines = [conversation("a"), conversation("b", { description: "Second" })];
    const plain = await importConversations(writeJsonl(temp, "data.jsonl", lines));
    const packed = await importConversations(writeJsonl(temp, "data.jsonl.gz", lines));
    expect(plain.scenarios.map((s) => s.name)).toEqual(["a", "b"]);
    expect(packed.scenarios).toEqual(plain.scenarios);
    expect(packed.stats).toEqual(plain.stats);
    expect(packed.sha256).not.toBe(plain.sha256);
  });

  it("refuses a file with no question left to ask, or none of the chosen categories", async () => {
    const path = writeJsonl(temp, "unanswerable.jsonl", [conversation("a", { questions: [{ id: "q", text: "?", evidence: ["ghost"] }] })]);
    const error = await importConversations(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecollectError);
    expect((error as RecollectError).message).toBe(`${path}: no question is left to ask: none has evidence that names an imported turn`);
    const other = writeJsonl(temp, "categories.jsonl", [conversation("a")]);
    const none = await importConversations(other, { categories: ["temporal"] }).catch((e: unknown) => e);
    expect((none as RecollectError).message).toBe(`${other}: holds no question of the chosen categories (temporal) to ask`);
  });

  it("drops and counts evidence that is not an id, listing every case with its file, line, question and string", async () => {
    const many = conversation("a", {
      questions: [
        { id: "q1", text: "Which?", evidence: ["s1:1; s2:1"] },
        { id: "q2", text: "When?", evidence: ["s1:1", "s1:1 - s1:2", "s2:1"] },
      ],
    });
    const path = writeJsonl(temp, "malformed.jsonl", [conversation("ok"), many]);
    const { scenarios, stats, notices } = await importConversations(path);
    const rule = "is not an id (ids use letters, digits and _ . : - / only)";
    expect(notices).toEqual([
      `${path}:2: at questions[0].evidence[0]: "s1:1; s2:1" ${rule}; dropped from the evidence of question q1`,
      `${path}:2: at questions[1].evidence[1]: "s1:1 - s1:2" ${rule}; dropped from the evidence of question q2`,
    ]);
    expect(stats.repairs.malformedEvidence).toBe(2);
    expect(stats.examples.malformedEvidence).toEqual(['a q1: "s1:1; s2:1"', 'a q2: "s1:1 - s1:2"']);
    // q1 kept no evidence, so it is not asked; q2 is asked with what was left.
    expect(stats.repairs.questionsWithoutEvidence).toBe(1);
    const asks = scenarios[1]!.steps.flatMap((step) => (step.ask ? [step.ask] : []));
    expect(asks.map((ask) => [ask.id, ask.expect])).toEqual([["q2", ["s1:1", "s2:1"]]]);
  });

  it("records no count of evidence that is not an id for data that has none", async () => {
    const { stats, notices } = await importConversations(writeJsonl(temp, "clean.jsonl", [conversation("a")]));
    expect(notices).toEqual([]);
    expect("malformedEvidence" in stats.repairs).toBe(false);
  });
});

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
});

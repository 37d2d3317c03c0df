import { existsSync, readdirSync, readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { importConversations } from "../../../src/datasets/conversations/import.js";
import { writeConversations } from "../../../src/datasets/conversations/write.js";
import { useTempDir } from "../../harness/temp-files.js";
import { conversation } from "./build.js";

const temp = useTempDir();

describe("writeConversations", () => {
  it("writes one conversation per line, and the importer reads them back", async () => {
    const path = temp.path("out/plain.jsonl");
    expect(await writeConversations(path, [conversation("a"), conversation("b")])).toBe(2);
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines).toEqual([JSON.stringify(conversation("a")), JSON.stringify(conversation("b")), ""]);
    expect((await importConversations(path)).scenarios.map((s) => s.name)).toEqual(["a", "b"]);
  });

  it("compresses when the name ends in .gz", async () => {
    const path = temp.path("out/packed.jsonl.gz");
    await writeConversations(path, [conversation("a")]);
    expect(gunzipSync(readFileSync(path)).toString("utf8")).toBe(`${JSON.stringify(conversation("a"))}\n`);
  });

  it("refuses a conversation the format does not accept, and leaves nothing behind", async () => {
    const path = temp.path("bad/out.jsonl");
    const broken = { ...conversation("b"), sessions: [] };
    await expect(writeConversations(path, [conversation("a"), broken])).rejects.toThrow(/converted conversation "b" is not valid/);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(temp.path("bad"))).toEqual([]);
  });
});

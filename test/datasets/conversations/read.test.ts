import { describe, expect, it } from "vitest";
import { readConversations } from "../../../src/datasets/conversations/read.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { useTempDir } from "../../harness/temp-files.js";
import { conversation, writeJsonl } from "./build.js";

const temp = useTempDir();

async function read(path: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const { where, conversation: c } of readConversations(path).conversations) ids.push(`${where} ${c.id}`);
  return ids;
}

async function failure(lines: (object | string)[]): Promise<string> {
  const path = writeJsonl(temp, `bad-${Math.random().toString(36).slice(2)}.jsonl`, lines as never[]);
  const error = await read(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RecollectError);
  return (error as RecollectError).message.replace(path, "FILE");
}

describe("readConversations", () => {
  it("gives each conversation with its line, skipping blank lines", async () => {
    const path = writeJsonl(temp, "two.jsonl", [conversation("a"), "", "   ", conversation("b")]);
    expect(await read(path)).toEqual([`${path}:1 a`, `${path}:4 b`]);
  });

  it("refuses a line that is not JSON, naming the file and the line", async () => {
    expect(await failure([conversation("a"), "{not json"])).toMatch(/^FILE:2: not valid JSON \(.+\)$/);
  });

  it("refuses a line that is not a conversation, naming the line and the JSON path", async () => {
    const c = conversation("a");
    expect(await failure([{ ...c, sessions: [{ ...c.sessions[0], turns: [{ id: "t", speaker: "A", text: 3 }] }] }])).toBe(
      'FILE:1: at sessions[0].turns[0].text: expected a string, but got the number 3; write it as a JSON string, e.g. "text": "3"',
    );
    expect(await failure([{ ...c, questions: [{ ...c.questions[0], category: 2 }] }])).toBe(
      'FILE:1: at questions[0].category: expected a string, but got the number 2; write it as a JSON string, e.g. "category": "2"',
    );
    expect(await failure([["a list"]])).toMatch(/^FILE:1: at \(top level\): .*expected object, received array$/);
    expect(await failure([{ ...c, questions: undefined }])).toMatch(/^FILE:1: at questions: .*expected array, received undefined$/);
  });

  it("refuses a conversation id used on an earlier line", async () => {
    expect(await failure([conversation("a"), conversation("b"), conversation("a")])).toBe('FILE:3: at id: conversation id "a" is already used on line 1');
  });

  it("refuses a file with no conversation", async () => {
    expect(await failure(["", " "])).toBe("FILE: holds no conversation (expected one JSON object per line)");
  });
});

import { describe, expect, it } from "vitest";
import { fileError } from "../../src/shared/errors.js";
import { type JsonCheck, parseJson, readJsonFile } from "../../src/shared/read-json.js";
import { useTempDir } from "../harness/temp-files.js";
import { userError } from "../helpers/user-error.js";

const temp = useTempDir();

/** A check of the kind a caller brings: it names where the data came from when it refuses it. */
const hasName: JsonCheck<{ name: string }> = (where, data) => {
  const name = (data as { name?: unknown } | null)?.name;
  if (typeof name !== "string") throw fileError(where, "at name: expected a string");
  return { name };
};

describe("parseJson", () => {
  it("gives the checked data", () => {
    expect(parseJson("a.json", '{"name":"tea","extra":1}', hasName)).toEqual({ name: "tea" });
  });

  it("names where text that is not JSON came from, with the parser's reason and the caller's hint", () => {
    expect(userError(() => parseJson("a.jsonl:3", "{oops", hasName)).message).toMatch(/^a\.jsonl:3: not valid JSON \(.+\)$/);
    expect(userError(() => parseJson("a.json", "{oops", hasName, { hint: "re-record it" })).message).toMatch(/^a\.json: not valid JSON \(.+\); re-record it$/);
  });

  it("leaves refusing the data to the check, which is told where it came from", () => {
    expect(userError(() => parseJson("a.json", '{"name":1}', hasName)).message).toBe("a.json: at name: expected a string");
  });
});

describe("readJsonFile", () => {
  const options = { maxBytes: 64, what: "name file", hint: "write one" };

  it("reads, parses and checks a file", () => {
    expect(readJsonFile(temp.write("ok.json", '{"name":"café"}'), hasName, options)).toEqual({ name: "café" });
  });

  it("refuses a file readTextFile refuses, before parsing it", () => {
    const empty = temp.write("empty.json", "");
    expect(userError(() => readJsonFile(empty, hasName, options)).message).toBe(`${empty}: is empty (0 bytes), not a name file`);
    const big = temp.write("big.json", `{"name":"${"x".repeat(100)}"}`);
    expect(userError(() => readJsonFile(big, hasName, options)).message).toBe(`${big}: is 111 bytes, over the 64 bytes limit for a name file`);
  });

  it("names the file when its text is not JSON, or not what the check wants", () => {
    const broken = temp.write("broken.json", "{oops");
    expect(userError(() => readJsonFile(broken, hasName, options)).message).toMatch(new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not valid JSON \\(.+\\); write one$`));
    const wrong = temp.write("wrong.json", "[]");
    expect(userError(() => readJsonFile(wrong, hasName, options)).message).toBe(`${wrong}: at name: expected a string`);
  });
});

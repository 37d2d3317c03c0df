import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { POLICY_PRESET_FORMAT, readPolicyPreset, serialisePolicyPreset } from "../../../src/harness/policy/preset-file.js";
import { fullPolicy, streamPreset } from "../../../src/memory/index.js";
import { useTempDir } from "../temp-files.js";
import { userError } from "../../helpers/user-error.js";

const temp = useTempDir();
const preset = (body: unknown) => temp.write(`p${Math.random().toString(36).slice(2)}.json`, typeof body === "string" ? body : JSON.stringify(body));

describe("policy preset files", () => {
  it("round-trip: what is written is read back as the same policy", () => {
    const text = serialisePolicyPreset({ name: "stream", description: "the Generative Agents stream", policy: streamPreset });
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual({ format: POLICY_PRESET_FORMAT, name: "stream", description: "the Generative Agents stream", policy: streamPreset });
    expect(readPolicyPreset(preset(text))).toEqual({ format: "recollect-policy/1", name: "stream", description: "the Generative Agents stream", policy: streamPreset });
  });

  it("refuses to write a policy the schema refuses", () => {
    expect(() => serialisePolicyPreset({ name: "x", description: "", policy: { ...fullPolicy, touch: "yes" as never } })).toThrow();
  });

  it("refuses text that is not JSON, naming the file and the format", () => {
    const file = preset("mode: pooled\n");
    expect(userError(() => readPolicyPreset(file)).message).toMatch(/: not valid JSON \(.*\); a policy preset is a JSON file of format recollect-policy\/1$/);
  });

  it("refuses another format, a missing name, an unknown key and a bad policy, each at its path", () => {
    const base = { format: POLICY_PRESET_FORMAT, name: "x", description: "", policy: fullPolicy };
    const cases: [unknown, RegExp][] = [
      [{ ...base, format: "recollect-policy/2" }, /: at format: Invalid input: expected "recollect-policy\/1"$/],
      [{ ...base, name: undefined }, /: at name: .*expected string, received undefined$/],
      [{ ...base, extra: 1 }, /: at \(top level\): unknown key "extra"$/],
      [{ ...base, policy: { ...fullPolicy, score: { ...fullPolicy.score, decayRate: 2 } } }, /: at policy\.score\.decayRate: .*<=1/],
      [{ ...base, policy: { ...fullPolicy, touch: undefined } }, /: at policy\.touch: .*expected boolean/],
    ];
    for (const [body, says] of cases) {
      const file = preset(body);
      const { message } = userError(() => readPolicyPreset(file));
      expect(message.startsWith(`${file}: `), message).toBe(true);
      expect(message).toMatch(says);
    }
  });

  it("refuses a directory, an empty file and one over the 1 MiB limit", () => {
    const dir = temp.path("folder.json");
    mkdirSync(dir);
    expect(userError(() => readPolicyPreset(dir)).message).toBe(`${dir}: is a directory, not a policy preset file`);
    const empty = preset("");
    expect(userError(() => readPolicyPreset(empty)).message).toBe(`${empty}: is empty (0 bytes), not a policy preset file`);
    const big = preset(" ".repeat(1024 * 1024 + 1));
    expect(userError(() => readPolicyPreset(big)).message).toBe(`${big}: is 1048577 bytes, over the 1048576-byte limit for a policy preset file`);
  });
});

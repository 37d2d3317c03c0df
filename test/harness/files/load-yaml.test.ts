import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatPath, loadYaml, readYaml, validate } from "../../../src/harness/files/load-yaml.js";
import { useTempDir } from "../temp-files.js";
import { FileError } from "../../../src/shared/errors.js";
import { userError } from "../../helpers/user-error.js";

const temp = useTempDir();


describe("formatPath", () => {
  it("writes a path inside a file as a reader would", () => {
    expect(formatPath(["steps", 3, "ask", "expect", 0])).toBe("steps[3].ask.expect[0]");
    expect(formatPath(["seeds"])).toBe("seeds");
    expect(formatPath([0, "id"])).toBe("[0].id");
    expect(formatPath([])).toBe("(top level)");
  });
});

describe("readYaml", () => {
  it("reads a YAML file into plain data", () => {
    const file = temp.write("ok.yaml", "name: x\nseeds: [1, 2]\n");
    expect(readYaml(file)).toEqual({ name: "x", seeds: [1, 2] });
  });

  it("names the file when it does not exist", () => {
    const file = temp.path("absent.yaml");
    const error = userError(() => readYaml(file));
    expect(error.message).toBe(`${file}: file not found`);
    expect(error).toBeInstanceOf(FileError);
    expect((error as FileError).file).toBe(file);
  });

  it("names the file and the line of malformed YAML, on one line, with the location given once", () => {
    const file = temp.write("broken.yaml", "name: x\nseeds: [1, 2\nablations: [full]\n");
    const { message } = userError(() => readYaml(file));
    expect(message).toMatch(new RegExp(`^${escape(file)}: malformed YAML at line 3, column 1: \\S`));
    expect(message).not.toContain("\n");
    expect(message.match(/at line/g)).toHaveLength(1);
    expect(message).not.toMatch(/:$/);
  });

  it("refuses a key given twice instead of keeping the last one silently", () => {
    const file = temp.write("twice.yaml", "name: a\nname: b\n");
    expect(userError(() => readYaml(file)).message).toBe(`${file}: malformed YAML at line 2, column 1: Map keys must be unique`);
  });
});

describe("readYaml with hostile or broken input", () => {
  it("refuses an alias bomb with one message instead of the parser's exception", () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [name, prev] of [["b", "a"], ["c", "b"], ["d", "c"], ["e", "d"], ["f", "e"]]) {
      lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(",")}]`);
    }
    const file = temp.write("bomb.yaml", lines.join("\n"));
    expect(userError(() => readYaml(file)).message).toBe(
      `${file}: its YAML aliases expand too far (the limit is 100 per alias), as in an alias bomb; write the values out`,
    );
  });

  it("keeps ordinary aliases working", () => {
    const file = temp.write("alias.yaml", "base: &b { jitter: 0.1 }\nvariation: *b\n");
    expect(readYaml(file)).toEqual({ base: { jitter: 0.1 }, variation: { jitter: 0.1 } });
  });

  it("reports nesting too deep to parse as malformed YAML, not a stack overflow", () => {
    const file = temp.write("deep.yaml", `a: ${"[".repeat(5000)}${"]".repeat(5000)}\n`);
    expect(userError(() => readYaml(file)).message).toMatch(new RegExp(`^${escape(file)}: malformed YAML at line 1, column \\d+: `));
  });

  it("refuses a file of comments only, and an empty one", () => {
    const comments = temp.write("comments.yaml", "# nothing here\n\n");
    expect(userError(() => readYaml(comments)).message).toBe(`${comments}: holds no YAML document (only comments or blank lines)`);
    const empty = temp.write("zero.yaml", "");
    expect(userError(() => readYaml(empty)).message).toBe(`${empty}: is empty (0 bytes), not an experiment or scenario file`);
  });

  it("refuses a file over the 8 MiB limit before parsing it", () => {
    const file = temp.write("huge.yaml", `# ${"x".repeat(9 * 1024 * 1024 - 3)}\n`);
    expect(userError(() => readYaml(file)).message).toBe(`${file}: is 9 MiB, over the 8 MiB limit for an experiment or scenario file`);
  });
});

describe("validate", () => {
  const schema = z.object({ name: z.string(), seeds: z.array(z.number()), options: z.object({ fast: z.boolean() }).strict() }).strict();

  it("returns the parsed data when it is valid", () => {
    expect(validate("f.yaml", schema, { name: "a", seeds: [1], options: { fast: true } })).toEqual({ name: "a", seeds: [1], options: { fast: true } });
  });

  it("reports the first issue with its path, and how many more there are", () => {
    const { message } = userError(() => validate("f.yaml", schema, { name: "a", seeds: "five", options: { fast: 3 } }));
    expect(message).toMatch(/^f\.yaml: at seeds: .*expected array, received string \(and 1 more\)$/);
  });

  it("says that a number or a boolean where text belongs wants quotes, in YAML's syntax for YAML", () => {
    expect(userError(() => validate("f.yaml", schema, { name: 3, seeds: [], options: { fast: true } })).message).toBe(
      'f.yaml: at name: expected a string, but got the number 3; quote it to keep it as text: name: "3"',
    );
    const list = z.object({ ids: z.array(z.string()) });
    expect(userError(() => validate("f.yaml", list, { ids: ["a", true] })).message).toBe(
      'f.yaml: at ids[1]: expected a string, but got the boolean true; quote it to keep it as text: "true"',
    );
  });

  it("shows the JSON string to write for data read from JSON, with no YAML quoting hint", () => {
    const json = { syntax: "json" } as const;
    expect(userError(() => validate("f.json", schema, { name: 3, seeds: [], options: { fast: true } }, json)).message).toBe(
      'f.json: at name: expected a string, but got the number 3; write it as a JSON string, e.g. "name": "3"',
    );
    const list = z.object({ ids: z.array(z.string()) });
    expect(userError(() => validate("f.json", list, { ids: ["a", true] }, json)).message).toBe(
      'f.json: at ids[1]: expected a string, but got the boolean true; write it as a JSON string, e.g. "true"',
    );
  });

  it("names an unknown key as such", () => {
    const { message } = userError(() => validate("f.yaml", schema, { name: "a", seeds: [], options: { fast: true, fasst: false } }));
    expect(message).toBe('f.yaml: at options: unknown key "fasst"');
  });

  it("explains a union's failure by its closest branch, not as a bare 'invalid input'", () => {
    const union = z.object({ entry: z.union([z.string(), z.object({ name: z.string() }).strict()]) });
    const { message } = userError(() => validate("f.yaml", union, { entry: { name: 5 } }));
    expect(message).toMatch(/^f\.yaml: at entry: name: .*expected string, received number$/);
  });
});

describe("loadYaml", () => {
  it("quotes the value as it was written when YAML read it as a number: an id such as 191e1832 is Infinity", () => {
    const file = temp.write("unquoted.yaml", "name: 191e1832\nids: [0x1F, 007]\n");
    const schema = z.object({ name: z.string(), ids: z.array(z.string()) });
    expect(userError(() => loadYaml(file, schema)).message).toBe(
      `${file}: at name: expected a string, but YAML reads 191e1832 as the number Infinity; quote it to keep it as text: name: "191e1832" (and 2 more)`,
    );
    const ids = temp.write("unquoted-ids.yaml", "name: x\nids: [0x1F]\n");
    expect(userError(() => loadYaml(ids, schema)).message).toBe(
      `${ids}: at ids[0]: expected a string, but YAML reads 0x1F as the number 31; quote it to keep it as text: "0x1F"`,
    );
  });

  it("finds the value as written when the schema reads a single item as a list of one", () => {
    const file = temp.write("single.yaml", "remember: { id: 191e1832 }\n");
    const schema = z.object({ remember: z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(z.object({ id: z.string() }))) });
    expect(userError(() => loadYaml(file, schema)).message).toBe(
      `${file}: at remember[0].id: expected a string, but YAML reads 191e1832 as the number Infinity; quote it to keep it as text: id: "191e1832"`,
    );
  });

  it("reads and validates in one step", () => {
    const file = temp.write("typed.yaml", "count: many\n");
    expect(userError(() => loadYaml(file, z.object({ count: z.number() }))).message).toMatch(
      new RegExp(`^${escape(file)}: at count: .*expected number, received string$`),
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

import { type Document, isScalar, parseDocument } from "yaml";
import type { z } from "zod";
import { fileError } from "../../shared/errors.js";
import { readTextFile, SIZE_LIMITS } from "../../shared/read-file.js";
import type { JsonCheck } from "../../shared/read-json.js";

/** `steps[3].ask.expect[0]` — the path of an issue inside a file, as a reader would write it. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out === "" ? "(top level)" : out;
}

/** YAML aliases a file may expand; far above what a hand-written file uses, far below an alias bomb. */
const MAX_YAML_ALIASES = 100;

/** Reads a YAML file, or fails with one message naming the file and what is wrong with it. */
export function readYaml(file: string): unknown {
  return toJS(readYamlDocument(file), file);
}

function readYamlDocument(file: string): Document {
  const text = readTextFile(file, { maxBytes: SIZE_LIMITS.yaml, what: "experiment or scenario file" });
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const where = first.linePos ? ` at line ${first.linePos[0].line}, column ${first.linePos[0].col}` : "";
    // prettyErrors appends " at line L, column C:" and a code excerpt; the location is given once, above.
    const problem = first.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    throw fileError(file, `malformed YAML${where}: ${problem}`);
  }
  if (document.contents === null) throw fileError(file, "holds no YAML document (only comments or blank lines)");
  return document;
}

/** The document as plain data, its aliases expanded no further than MAX_YAML_ALIASES each. */
function toJS(document: Document, file: string): unknown {
  try {
    return document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    // The parser refuses an alias that would expand past the limit (a "billion laughs" file).
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw fileError(file, `its YAML aliases expand too far (the limit is ${MAX_YAML_ALIASES} per alias), as in an alias bomb; write the values out`, { cause: error });
    }
    throw error;
  }
}

/** How a value at a path was written in the file, when that is known (YAML keeps its source text). */
export type SourceText = (path: readonly PropertyKey[]) => string | undefined;

/**
 * The syntax the data was written in, so that a hint shows the fix in that syntax, and for YAML
 * the text as written (see SourceText).
 */
export type DataSource = { syntax: "yaml"; text?: SourceText } | { syntax: "json" };

/** Validates data read from `file` against a schema; the first issue names its path and expectation. */
export function validate<S extends z.ZodType>(file: string, schema: S, data: unknown, source: DataSource = { syntax: "yaml" }): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : "";
  const problem = notAString(issue, data, source) ?? describeIssue(issue);
  throw fileError(file, `at ${formatPath(issue.path)}: ${problem}${more}`);
}

/** A schema as readJsonFile and parseJson take it, with validate's messages. */
export function schemaCheck<S extends z.ZodType>(schema: S): JsonCheck<z.output<S>> {
  return (where, data) => validate(where, schema, data, { syntax: "json" });
}

/**
 * A string field that received a number or a boolean is almost always an unquoted value: YAML
 * reads `id: 191e1832` as 1.91 × 10^1837, which is Infinity. Say so, and show the quoted form.
 * JSON has no such surprise (a number there was written as one), so for JSON the hint is the
 * JSON string to write instead, never YAML's `key: "value"`.
 */
function notAString(issue: z.core.$ZodIssue, data: unknown, source: DataSource): string | undefined {
  if (issue.code !== "invalid_type" || issue.expected !== "string") return undefined;
  const path = pathInData(data, issue.path);
  const value = valueAt(data, path);
  if (typeof value !== "number" && typeof value !== "boolean") return undefined;
  const key = issue.path.at(-1);
  if (source.syntax === "json") {
    const asString = JSON.stringify(String(value));
    return `expected a string, but got the ${typeof value} ${String(value)}; write it as a JSON string, e.g. ${typeof key === "string" ? `${JSON.stringify(key)}: ` : ""}${asString}`;
  }
  const written = source.text?.(path) ?? String(value);
  const quoted = `${typeof key === "string" ? `${key}: ` : ""}${JSON.stringify(written)}`;
  const read = source.text === undefined ? `got the ${typeof value} ${written}` : `YAML reads ${written} as the ${typeof value} ${String(value)}`;
  return `expected a string, but ${read}; quote it to keep it as text: ${quoted}`;
}

/**
 * The path as it is in the file: a schema may read a single item as a list of one (a step's
 * `remember`), so an index into something that is not a list is left out.
 */
function pathInData(data: unknown, path: readonly PropertyKey[]): PropertyKey[] {
  const inData: PropertyKey[] = [];
  let value = data;
  for (const key of path) {
    if (typeof key === "number" && !Array.isArray(value)) continue;
    inData.push(key);
    value = value !== null && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return inData;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return `unknown key ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  if (issue.code === "invalid_union" && "errors" in issue && issue.errors.length > 0) {
    // A union's own message ("Invalid input") says nothing; the closest branch's first issue does.
    // A branch that wanted another type altogether ("expected string, received object") fits worst.
    const wrongType = (issues: z.core.$ZodIssue[]) => (issues[0]?.code === "invalid_type" && issues[0].path.length === 0 ? 1 : 0);
    const best = [...issue.errors].sort((a, b) => wrongType(a) - wrongType(b) || a.length - b.length)[0];
    if (best.length > 0) return `${formatPath(best[0].path)}: ${best[0].message}`.replace(/^\(top level\): /, "");
  }
  return issue.message;
}

export function loadYaml<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  const document = readYamlDocument(file);
  const sourceText: SourceText = (path) => {
    const node = document.getIn(path as unknown[], true);
    return isScalar(node) && typeof node.source === "string" ? node.source : undefined;
  };
  return validate(file, schema, toJS(document, file), { syntax: "yaml", text: sourceText });
}

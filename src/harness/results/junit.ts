/**
 * JUnit XML, the report format CI systems (GitHub Actions, GitLab, Jenkins) read test outcomes
 * from. The structure is fixed and small, so it is written here rather than through an XML
 * builder; the care goes into escaping, since names and messages come from experiment files,
 * ablation names and file paths that a user chose.
 */

export interface JunitCase {
  name: string;
  classname: string;
  /** A failed case: a one-line message, a type, and the full text. */
  failure?: { message: string; type: string; text: string };
  /** A case that did not run, and why. */
  skipped?: string;
  /** What a passing case has to say (a tolerated change, for instance). */
  output?: string;
}

export interface JunitSuite {
  name: string;
  cases: JunitCase[];
}

/**
 * XML 1.0 allows only tab, line feed, carriage return and the characters from U+0020 on, less the
 * surrogates and U+FFFE/U+FFFF; even escaped as &#…; the others are not well-formed. They are
 * shown as \u{…} instead, so nothing of the message is lost.
 */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const shown = (text: string) => text.replace(NOT_XML, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

/** A raw carriage return in text would be read back as a line feed, so it is written as a reference. */
const TEXT: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;" };
/** In an attribute, quotes close it, and a raw line break or tab would be normalised to a space. */
const ATTRIBUTE: Record<string, string> = { ...TEXT, '"': "&quot;", "'": "&apos;", "\n": "&#10;", "\t": "&#9;" };

export const escapeText = (text: string) => shown(text).replace(/[&<>\r]/g, (c) => TEXT[c]!);
export const escapeAttribute = (text: string) => shown(text).replace(/[&<>"'\n\r\t]/g, (c) => ATTRIBUTE[c]!);

const attributes = (pairs: Record<string, string | number>) =>
  Object.entries(pairs)
    .map(([key, value]) => ` ${key}="${escapeAttribute(String(value))}"`)
    .join("");

function renderCase(c: JunitCase): string {
  const head = `    <testcase${attributes({ classname: c.classname, name: c.name })}`;
  const body: string[] = [];
  if (c.failure) body.push(`      <failure${attributes({ message: c.failure.message, type: c.failure.type })}>${escapeText(c.failure.text)}</failure>`);
  if (c.skipped !== undefined) body.push(`      <skipped${attributes({ message: c.skipped })}/>`);
  if (c.output !== undefined) body.push(`      <system-out>${escapeText(c.output)}</system-out>`);
  return body.length === 0 ? `${head}/>` : [`${head}>`, ...body, "    </testcase>"].join("\n");
}

const counts = (cases: readonly JunitCase[]) => ({
  tests: cases.length,
  failures: cases.filter((c) => c.failure).length,
  errors: 0,
  skipped: cases.filter((c) => c.skipped !== undefined).length,
});

/** The whole document: a <testsuites> named `name`, one <testsuite> per suite, in the order given. */
export function renderJunit(name: string, suites: readonly JunitSuite[]): string {
  const all = suites.flatMap((s) => s.cases);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name, ...counts(all) })}>`,
    ...suites.flatMap((suite) => [`  <testsuite${attributes({ name: suite.name, ...counts(suite.cases) })}>`, ...suite.cases.map(renderCase), "  </testsuite>"]),
    "</testsuites>",
    "",
  ].join("\n");
}

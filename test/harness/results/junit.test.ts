import { SaxesParser } from "saxes";
import { describe, expect, it } from "vitest";
import { escapeAttribute, escapeText, type JunitSuite, renderJunit } from "../../../src/harness/results/junit.js";

interface Element {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: Element[];
}

/** Parses with a strict XML 1.0 parser (it throws on anything not well-formed) into a small tree. */
function parseXml(xml: string): Element {
  const parser = new SaxesParser();
  const root: Element = { name: "#document", attributes: {}, text: "", children: [] };
  const stack = [root];
  parser.on("opentag", (tag) => {
    const element: Element = { name: tag.name, attributes: tag.attributes as Record<string, string>, text: "", children: [] };
    stack.at(-1)!.children.push(element);
    stack.push(element);
  });
  parser.on("closetag", () => void stack.pop());
  parser.on("text", (text) => (stack.at(-1)!.text += text));
  parser.write(xml).close();
  return root.children[0]!;
}

/** Names a user can give: quotes, markup, entities, line breaks, control characters, a lone surrogate, an emoji. */
const HOSTILE = `a"b'c<d>&e;&amp; ]]> </testcase><x y="1">\n\r\ttab \u0000\u001b[31m\u0007 \uD800 \uFFFE 😀 ünï`;

const suites: JunitSuite[] = [
  {
    name: HOSTILE,
    cases: [
      { classname: HOSTILE, name: HOSTILE, failure: { message: HOSTILE, type: "headline-shift", text: `${HOSTILE}\nsecond line` } },
      { classname: "tiny", name: "passes", output: HOSTILE },
      { classname: "tiny", name: "plain" },
    ],
  },
  { name: "skipped-one", cases: [{ classname: "skipped-one", name: "run", skipped: "the data file is absent" }] },
];

describe("renderJunit", () => {
  const xml = renderJunit("recollect check", suites);
  const doc = parseXml(xml);

  it("is well-formed XML whatever the names and messages hold", () => {
    expect(doc.name).toBe("testsuites");
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  });

  it("counts tests, failures and skips per suite and in all", () => {
    expect(doc.attributes).toMatchObject({ name: "recollect check", tests: "4", failures: "1", errors: "0", skipped: "1" });
    expect(doc.children.map((s) => [s.attributes.tests, s.attributes.failures, s.attributes.skipped])).toEqual([
      ["3", "1", "0"],
      ["1", "0", "1"],
    ]);
  });

  it("keeps every character XML can carry, attribute line breaks included, and shows the rest as \\u{…}", () => {
    const shown = HOSTILE.replace("\u0000", "\\u{0}").replace("\u001b", "\\u{1b}").replace("\u0007", "\\u{7}").replace("\uD800", "\\u{d800}").replace("\uFFFE", "\\u{fffe}");
    const [suite] = doc.children;
    const [failed, passed, plain] = suite!.children;
    expect(suite!.attributes.name).toBe(shown);
    expect(failed!.attributes).toMatchObject({ classname: shown, name: shown });
    const failure = failed!.children[0]!;
    expect(failure.name).toBe("failure");
    expect(failure.attributes).toEqual({ message: shown, type: "headline-shift" });
    expect(failure.text).toBe(`${shown}\nsecond line`);
    expect(passed!.children.map((c) => [c.name, c.text])).toEqual([["system-out", shown]]);
    expect(plain!.children).toEqual([]);
  });

  it("marks a skipped case with its reason", () => {
    expect(doc.children[1]!.children[0]!.children[0]).toMatchObject({ name: "skipped", attributes: { message: "the data file is absent" } });
  });

  it("is the same text for the same suites", () => {
    expect(renderJunit("recollect check", suites)).toBe(xml);
  });
});

describe("escaping", () => {
  it("escapes markup and carriage returns in text, and quotes and whitespace too in attributes", () => {
    expect(escapeText(`<a href="x">&</a>\r\n`)).toBe(`&lt;a href="x"&gt;&amp;&lt;/a&gt;&#13;\n`);
    expect(escapeAttribute(`"it's"\n\t<&>`)).toBe("&quot;it&apos;s&quot;&#10;&#9;&lt;&amp;&gt;");
  });
});

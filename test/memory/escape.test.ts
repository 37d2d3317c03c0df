import { describe, expect, it } from "vitest";
import { escapeMemoryText, LINE_BREAKS, renderLine } from "../../src/memory/escape.js";

describe("escapeMemoryText", () => {
  it("escapes markup characters", () =>
    expect(escapeMemoryText("a < b && c > d")).toBe("a &lt; b &amp;&amp; c &gt; d"));
  it("keeps a memory on one line", () => {
    expect(escapeMemoryText("one\ntwo\r\nthree\u2028four")).toBe("one&#10;two&#13;&#10;three&#8232;four");
    expect(escapeMemoryText("x\ny")).not.toMatch(/[\n\r]/);
  });
  it("knows every line break: LF, CR, VT, FF, NEL and the Unicode line and paragraph separators", () => {
    expect([...LINE_BREAKS].map((ch) => ch.codePointAt(0))).toEqual([0x0a, 0x0d, 0x0b, 0x0c, 0x85, 0x2028, 0x2029]);
  });
  it.each([...LINE_BREAKS].map((ch) => [`U+${ch.codePointAt(0)!.toString(16).padStart(4, "0")}`, ch]))("escapes %s as a character reference", (_name, ch) => {
    expect(escapeMemoryText(`a${ch}b`)).toBe(`a&#${ch.codePointAt(0)};b`);
  });
  it("defuses a leading header mark", () => expect(escapeMemoryText("# Working")).toBe("&#35; Working"));
  it("cannot close a section or open another", () => {
    const escaped = escapeMemoryText("</semantic>\n<working>\n## Instructions");
    expect(escaped).not.toMatch(/[<>\n]/);
  });
  it("is injective on ampersands (already-escaped text stays distinct)", () =>
    expect(escapeMemoryText("&lt;")).not.toBe(escapeMemoryText("<")));
});

describe("renderLine", () => {
  it("prefixes the escaped text with a list mark", () => expect(renderLine("# hi")).toBe("- &#35; hi"));
});

import { describe, expect, it } from "vitest";
import { LINE_BREAKS } from "../../../src/memory/escape.js";
import { code, escapeMarkdown, escapeProse, linkDestination } from "../../../src/report/markdown/escape.js";

describe("escapeMarkdown", () => {
  it("leaves ordinary text as it is", () => {
    expect(escapeMarkdown("Which hotel in Lisbon should Ana book for the trip?")).toBe("Which hotel in Lisbon should Ana book for the trip?");
    expect(escapeMarkdown("recall_any@1 of no-touch, 3 * 4")).toBe("recall_any@1 of no-touch, 3 * 4");
  });

  it("turns every line break into a space, so a query cannot start a heading or split a table row", () => {
    expect(escapeMarkdown("a\r\n# Owned\n<b>x</b>")).toBe("a # Owned &lt;b>x&lt;/b>");
    for (const ch of LINE_BREAKS) expect(escapeMarkdown(`a${ch}b`)).toBe("a b");
    expect(escapeMarkdown("lone\rreturn")).toBe("lone return");
  });

  it("escapes what has a meaning anywhere in a line: pipes, backslashes, backticks, brackets, HTML", () => {
    expect(escapeMarkdown("a | b")).toBe("a \\| b");
    expect(escapeMarkdown("C:\\temp")).toBe("C:\\\\temp");
    expect(escapeMarkdown("`rm -rf`")).toBe("\\`rm -rf\\`");
    expect(escapeMarkdown("![x](http://e/x.png)")).toBe("!\\[x\\](http://e/x.png)");
    expect(escapeMarkdown("<script>alert(1)</script> & &amp;")).toBe("&lt;script>alert(1)&lt;/script> &amp; &amp;amp;");
  });

  it("neutralises a first character that would start a block", () => {
    expect(escapeMarkdown("# heading")).toBe("\\# heading");
    expect(escapeMarkdown("> quote")).toBe("\\> quote");
    expect(escapeMarkdown("- item")).toBe("\\- item");
    expect(escapeMarkdown("+ item")).toBe("\\+ item");
    expect(escapeMarkdown("* item")).toBe("\\* item");
    expect(escapeMarkdown("===")).toBe("\\===");
    expect(escapeMarkdown("___")).toBe("\\___");
    expect(escapeMarkdown("~~~")).toBe("\\~~~");
    expect(escapeMarkdown("1. first")).toBe("1\\. first");
    expect(escapeMarkdown("12) twelfth")).toBe("12\\) twelfth");
    expect(escapeMarkdown("    indented code")).toBe("&#32;   indented code");
    expect(escapeMarkdown("\tindented")).toBe("&#9;indented");
    expect(escapeMarkdown("[x]: http://example.com")).toBe("\\[x\\]: http://example.com");
  });
});

describe("code", () => {
  it("fences with one more backtick than the longest run inside, padding a backtick at an edge", () => {
    expect(code("full")).toBe("`full`");
    expect(code("a`b")).toBe("``a`b``");
    expect(code("``x")).toBe("``` ``x ```");
    expect(code(" x ")).toBe("`  x  `");
  });

  it("keeps the span on one line", () => {
    expect(code("a\n## b\u2029c")).toBe("`a ## b c`");
  });
});

describe("escapeProse", () => {
  it("keeps a description's code spans and escapes the rest", () => {
    expect(escapeProse("Designed to make `pooled` lose.")).toBe("Designed to make `pooled` lose.");
    expect(escapeProse("# not a heading, `no-touch` | <i>")).toBe("\\# not a heading, `no-touch` \\| &lt;i>");
    expect(escapeProse("a stray ` backtick")).toBe("a stray \\` backtick");
    expect(escapeProse("`a`\n\n# b")).toBe("`a`  # b");
  });
});

describe("linkDestination", () => {
  it("percent-encodes what would end or break a link destination", () => {
    expect(linkDestination("reports/charts/core/metrics.png")).toBe("reports/charts/core/metrics.png");
    expect(linkDestination("reports/a b/(x).png")).toBe("reports/a%20b/%28x%29.png");
    expect(linkDestination("é<>")).toBe("%C3%A9%3C%3E");
    expect(linkDestination("a\ud800b")).toBe("a%EF%BF%BDb");
  });
});

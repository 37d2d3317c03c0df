import { describe, expect, it } from "vitest";
import { markdownBlock, markdownInline } from "../../../src/report/html/markdown.js";

describe("markdown in the HTML report", () => {
  it("renders code spans, emphasis and links", () => {
    expect(markdownInline("weights `[1, 0, 0]`: *relevance* alone, see [ranx](https://github.com/AmenRa/ranx)")).toBe(
      'weights <code>[1, 0, 0]</code>: <em>relevance</em> alone, see <a href="https://github.com/AmenRa/ranx">ranx</a>',
    );
    expect(markdownBlock("One.\n\nTwo.")).toBe("<p>One.</p>\n<p>Two.</p>\n");
  });

  it("shows raw HTML as text and refuses script links", () => {
    expect(markdownInline('<img src=x onerror="alert(1)"> <b>bold</b>')).toBe(
      "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &lt;b&gt;bold&lt;/b&gt;",
    );
    expect(markdownInline("[click](javascript:alert(1))")).not.toContain("href");
    expect(markdownBlock("<script>alert(1)</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n");
  });
});

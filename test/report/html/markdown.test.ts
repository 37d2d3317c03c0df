import { describe, expect, it } from "vitest";
import { markdownBlock, markdownInline } from "../../../src/report/html/markdown.js";

describe("markdown in the HTML report", () => {
  it("renders paragraphs, emphasis, code, lists and block quotes", () => {
    expect(markdownInline("weights `[1, 0, 0]`: *relevance* alone, **no** decay")).toBe(
      "weights <code>[1, 0, 0]</code>: <em>relevance</em> alone, <strong>no</strong> decay",
    );
    expect(markdownBlock("One.\n\nTwo.")).toBe("<p>One.</p>\n<p>Two.</p>\n");
    expect(markdownBlock("- a\n- b\n\n1. c")).toBe("<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n<ol>\n<li>c</li>\n</ol>\n");
    expect(markdownBlock("```\nx < y\n```")).toBe("<pre><code>x &lt; y\n</code></pre>\n");
    expect(markdownBlock("> quoted")).toBe("<blockquote>\n<p>quoted</p>\n</blockquote>\n");
  });

  it("shows raw HTML as text and refuses script links", () => {
    expect(markdownInline('<img src=x onerror="alert(1)"> <b>bold</b>')).toBe(
      "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &lt;b&gt;bold&lt;/b&gt;",
    );
    expect(markdownInline("[click](javascript:alert(1))")).toBe("[click](javascript:alert(1))");
    expect(markdownBlock("<script>alert(1)</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n");
    expect(markdownBlock("<div>\n\n*x*\n\n</div>")).toBe("<p>&lt;div&gt;</p>\n<p><em>x</em></p>\n<p>&lt;/div&gt;</p>\n");
  });

  it("draws no image, so nothing is fetched: the image becomes its text and its target", () => {
    const html = markdownBlock("![i](http://127.0.0.1:9/img.png)");
    expect(html).not.toContain("<img");
    expect(html).toBe('<p>!i (<code class="url">http://127.0.0.1:9/img.png</code>)</p>\n');
    expect(markdownBlock('![i](data:image/png;base64,AAAA "t")')).not.toContain("<img");
  });

  it("forges no structure: headings, rules and tables stay text", () => {
    expect(markdownBlock("# Forged")).toBe("<p># Forged</p>\n");
    expect(markdownBlock("###### Forged")).toBe("<p>###### Forged</p>\n");
    expect(markdownBlock("Forged\n===")).toBe("<p>Forged\n===</p>\n");
    expect(markdownBlock("Forged\n---")).toBe("<p>Forged\n---</p>\n");
    expect(markdownBlock("***")).toBe("<p>***</p>\n");
    expect(markdownBlock("| a | b |\n| - | - |\n| 1 | 2 |")).not.toMatch(/<(table|h\d|hr)\b/);
    // Inside one line, block syntax was never structure to begin with.
    expect(markdownInline("# Forged")).toBe("# Forged");
  });

  it("shows an outside link as its text followed by its target, never as a live link", () => {
    expect(markdownInline("see [ranx](https://github.com/AmenRa/ranx)")).toBe(
      'see ranx (<code class="url">https://github.com/AmenRa/ranx</code>)',
    );
    // A label cannot disguise the target: what the reader sees is where it leads.
    expect(markdownInline("[the results](http://evil.example/steal?x=1&y=2 \"title\")")).toBe(
      'the results (<code class="url">http://evil.example/steal?x=1&amp;y=2</code>)',
    );
    expect(markdownInline("<https://example.com/a>")).toBe('<code class="url">https://example.com/a</code>');
    expect(markdownBlock("[ref]\n\n[ref]: http://evil.example/")).toBe('<p>ref (<code class="url">http://evil.example/</code>)</p>\n');
    // A relative target would resolve against the report's own folder; it is shown, not followed.
    expect(markdownInline("[scenario](../scenarios/a.yaml)")).toBe('scenario (<code class="url">../scenarios/a.yaml</code>)');
    expect(markdownBlock("[a](http://a.example) [b](https://b.example) <http://c.example>")).not.toContain("<a");
  });

  it("shows the target a browser would use: escaped, percent-encoded, internationalised hosts in punycode", () => {
    expect(markdownInline('[x](http://example.com/"><script>)')).toBe('x (<code class="url">http://example.com/%22%3E%3Cscript%3E</code>)');
    expect(markdownInline("[пример](http://пример.рф/)")).toBe('пример (<code class="url">http://xn--e1afmkfd.xn--p1ai/</code>)');
  });

  it("keeps links within the page live", () => {
    expect(markdownInline("[core](#experiment--core)")).toBe('<a href="#experiment--core">core</a>');
  });
});

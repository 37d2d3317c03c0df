import { describe, expect, it } from "vitest";
import { markdownLinks } from "../../../src/report/markdown/links.js";

describe("markdownLinks", () => {
  it("lists the targets of images and links, in document order", () => {
    const markdown = "# T\n\n![chart](reports/charts/core/metrics.png)\n\nSee [the report](reports/index.html#core) and <https://example.org>.\n";
    expect(markdownLinks(markdown)).toEqual(["reports/charts/core/metrics.png", "reports/index.html#core", "https://example.org"]);
  });

  it("finds links inside tables and lists, and reference-style links", () => {
    const markdown = "| a | b |\n| - | - |\n| ![x](x.png) | y |\n\n- [item][ref]\n\n[ref]: docs/ref.md\n";
    expect(markdownLinks(markdown)).toEqual(["x.png", "docs/ref.md"]);
  });

  it("ignores what only looks like a link: code spans, code blocks and raw HTML", () => {
    expect(markdownLinks("`![x](a.png)`\n\n```\n![y](b.png)\n```\n\n<img src=\"c.png\">\n")).toEqual([]);
  });
});

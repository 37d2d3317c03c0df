import { describe, expect, it } from "vitest";
import { escapeHtml, htmlId, scriptText } from "../../../src/report/html/escape.js";

describe("escapeHtml", () => {
  it("escapes the five characters that can change HTML structure", () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
    expect(escapeHtml(42)).toBe("42");
  });
});

describe("scriptText", () => {
  it("breaks up a closing script tag inside inlined code without changing what a string means", () => {
    const source = `var s = "</script>"; var c = "<!--";`;
    const safe = scriptText(source);
    expect(safe).not.toMatch(/<\/script|<!--/i);
    // The escapes are no-ops inside JavaScript strings.
    expect(new Function(`${safe}; return [s, c];`)()).toEqual(["</script>", "<!--"]);
  });
});

describe("htmlId", () => {
  it("joins names into an id without spaces or selector characters", () => {
    expect(htmlId("chart", 0, "rank change/#1")).toBe("chart--0--rank_change__1");
  });
});

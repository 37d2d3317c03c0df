import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../../../src/report/html/csp.js";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

function directives(policy: string): Map<string, string[]> {
  return new Map(policy.split("; ").map((d) => { const [name, ...sources] = d.split(" "); return [name!, sources]; }));
}

describe("contentSecurityPolicy", () => {
  const inline = { scripts: ["var a = 1;", "console.log('é');"], styles: ["body { margin: 0 }"] };

  it("fetches nothing from anywhere: every fetch directive falls back to default-src 'none'", () => {
    const policy = directives(contentSecurityPolicy(inline));
    expect(policy.get("default-src")).toEqual(["'none'"]);
    for (const name of ["img-src", "font-src", "connect-src", "frame-src", "media-src", "object-src", "worker-src", "manifest-src"]) {
      expect(policy.has(name), name).toBe(false);
    }
    // These two do not fall back to default-src, so they are closed by name.
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'none'"]);
  });

  it("lets only the page's own inline scripts and style run, each named by the hash of its UTF-8 text", () => {
    const policy = directives(contentSecurityPolicy(inline));
    expect(policy.get("script-src")).toEqual([sha256("var a = 1;"), sha256("console.log('é');"), "'unsafe-eval'"]);
    expect(policy.get("style-src")).toEqual([sha256("body { margin: 0 }")]);
    expect(contentSecurityPolicy(inline)).not.toMatch(/unsafe-inline|https?:|\*|nonce-/);
  });

  it("is a pure function of the inline code: the same code gives the same bytes, other code another policy", () => {
    expect(contentSecurityPolicy(inline)).toBe(contentSecurityPolicy({ scripts: [...inline.scripts], styles: [...inline.styles] }));
    expect(contentSecurityPolicy(inline)).not.toBe(contentSecurityPolicy({ ...inline, scripts: ["var a = 2;"] }));
  });

  it("refuses code with a CR, whose hash the browser would compute over other text", () => {
    expect(() => contentSecurityPolicy({ scripts: ["a;\r\nb;"], styles: [] })).toThrow(/CR/);
  });

  it("refuses code with a NUL, which the HTML parser replaces before the browser hashes it", () => {
    expect(() => contentSecurityPolicy({ scripts: ['var key = a + "\u0000" + b;'], styles: [] })).toThrow(/NUL/);
  });
});

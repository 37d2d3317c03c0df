import { createHash } from "node:crypto";

/** The inline code the page runs and the inline style it applies, exactly as written between their tags. */
export interface InlineCode {
  scripts: readonly string[];
  styles: readonly string[];
}

/**
 * A CSP source for one inline element. The browser hashes the element's text as UTF-8 after the
 * HTML parser has turned CR LF into LF and NUL into U+FFFD, so text with a CR or a NUL could never
 * match and is refused here rather than silently blocked in the browser.
 */
function hashSource(text: string): string {
  if (text.includes("\r")) throw new Error("inline script or style contains a CR, which the browser's hash would not match");
  if (text.includes("\u0000")) throw new Error("inline script or style contains a NUL, which the browser's hash would not match");
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The page's Content-Security-Policy: nothing may be fetched from anywhere (`default-src 'none'`,
 * so no images, fonts, frames or connections either), and only the page's own inline scripts and
 * style, named by hash, may run or apply. Hashes rather than nonces keep the page a pure function
 * of its inputs.
 * - 'unsafe-eval': Vega compiles its expression language to JavaScript with `Function`, and the
 *   charts draw nothing without it. The expressions come from the compiled chart specs and Vega's
 *   parser admits only its own small language, so no text from a results file becomes code, and
 *   nothing that code does can fetch under this policy.
 * - `style-src` has no 'unsafe-inline', so style attributes in the markup are refused too; Vega
 *   styles its SVG through the CSSOM, which the policy does not govern.
 * - `base-uri` and `form-action` do not fall back to default-src, so they are closed by name: no
 *   `<base>` can redirect relative links and the filter form can submit nowhere.
 */
export function contentSecurityPolicy(inline: InlineCode): string {
  return [
    "default-src 'none'",
    `script-src ${[...inline.scripts.map(hashSource), "'unsafe-eval'"].join(" ")}`,
    `style-src ${inline.styles.map(hashSource).join(" ")}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text for element content or a quoted attribute value. */
export function escapeHtml(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * JSON that is safe inside a <script> element: "<" is written as \u003c so no string in the data
 * can close the element or open a comment, and the line separators that JSON allows but older
 * JavaScript parsers reject are escaped too.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A library bundle inlined as script text: nothing inside it may end the <script> element early. */
export function scriptText(source: string): string {
  return source.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

/** An id usable in HTML and CSS selectors, made from arbitrary names. */
export function htmlId(...parts: (string | number)[]): string {
  return parts.map((p) => String(p).replace(/[^A-Za-z0-9_-]/g, "_")).join("--");
}

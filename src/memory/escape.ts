/**
 * Memory text goes into a prompt inside `<kind>` … `</kind>` tags, one `- text` line per memory.
 * Escaping uses XML-style character references so it is reversible and a memory can never close
 * its section, open another, forge a `#` header or spill onto a second line.
 */

/** Every character a renderer, an editor or a model may take as the end of a line. */
export const LINE_BREAKS = "\n\r\v\f\u0085\u2028\u2029";
const LINE_BREAK = new RegExp(`[${LINE_BREAKS}]`, "g");

/** Any character that escaping changes (a leading `#` is checked apart). */
const SPECIAL = /[&<>\n\r\v\f\u0085\u2028\u2029]/;

export function escapeMemoryText(text: string): string {
  if (!SPECIAL.test(text) && !text.startsWith("#")) return text;
  let out = text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(LINE_BREAK, (ch) => `&#${ch.codePointAt(0)};`);
  if (out.startsWith("#")) out = `&#35;${out.slice(1)}`;
  return out;
}

/** The exact line a memory occupies in a block; its token cost is what quotas count. */
export function renderLine(text: string): string {
  return `- ${escapeMemoryText(text)}`;
}

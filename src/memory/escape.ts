/**
 * Memory text goes into a prompt inside `<kind>` … `</kind>` tags, one `- text` line per memory.
 * Escaping uses XML-style character references so it is reversible and a memory can never close
 * its section, open another, forge a `#` header or spill onto a second line.
 */

/** Every character a renderer, an editor or a model may take as the end of a line. */
export const LINE_BREAKS = "\n\r\v\f\u0085\u2028\u2029";

/** Every character escaping replaces, and a `#` at the start (a markdown header). */
const SPECIAL = new RegExp(`[&<>${LINE_BREAKS}]|^#`, "g");
const NAMED: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

export function escapeMemoryText(text: string): string {
  return text.replace(SPECIAL, (ch) => NAMED[ch] ?? `&#${ch.codePointAt(0)};`);
}

/** The exact line a memory occupies in a block; its token cost is what quotas count. */
export function renderLine(text: string): string {
  return `- ${escapeMemoryText(text)}`;
}

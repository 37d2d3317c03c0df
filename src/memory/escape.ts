/**
 * Memory text goes into a prompt inside `<kind>` … `</kind>` tags, one `- text` line per memory.
 * Escaping uses XML-style character references so it is reversible and a memory can never close
 * its section, open another, forge a `#` header, spill onto a second line, or hide or reorder
 * what a reader of the block sees.
 */

/**
 * Every character a renderer, an editor or a model's tooling may take as the end of a line:
 * JavaScript's line terminators, and also those of Python's `str.splitlines()` (VT, FF, the
 * file, group and record separators U+001C–U+001E, NEL and the Unicode separators).
 */
export const LINE_BREAKS = "\n\r\v\f\u001c\u001d\u001e\u0085\u2028\u2029";

/**
 * Characters that never reach a block raw, besides `&`, `<` and `>`:
 * - every C0 control but TAB, DEL and every C1 control: several are line breaks to some splitter
 *   (see LINE_BREAKS), and the rest (NUL, ESC, …) are invisible to a reader yet reach the model.
 *   TAB stays: it is whitespace that breaks no line and reorders nothing, and real conversation
 *   text holds it, so escaping it would change token costs for no safety;
 * - U+2028 and U+2029, line breaks for JavaScript and Python;
 * - the bidirectional formatting characters: the embeddings and overrides U+202A–U+202E, the
 *   isolates U+2066–U+2069, and the marks U+200E, U+200F and U+061C. They can make a line display
 *   in another order than the model reads it, so a person reviewing a block could be shown text
 *   that is not there. The marks are weaker than overrides, but as invisible as them, and an
 *   escape loses nothing.
 */
const CONTROLS = "\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";

/** Every character escaping replaces, and a `#` at the start (a markdown header). */
const SPECIAL = new RegExp(`[&<>${CONTROLS}]|^#`, "g");
const NAMED: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * A replaced character becomes its decimal reference (`&#28;`) rather than a space or U+FFFD:
 * the reference is plain visible ASCII, so it can break no line and reorder nothing, it keeps
 * which character was there (two memories that differ only in a control stay distinct), and line
 * breaks already took this form, so the block has one convention.
 */
export function escapeMemoryText(text: string): string {
  return text.replace(SPECIAL, (ch) => NAMED[ch] ?? `&#${ch.codePointAt(0)};`);
}

/** The exact line a memory occupies in a block; its token cost is what quotas count. */
export function renderLine(text: string): string {
  return `- ${escapeMemoryText(text)}`;
}

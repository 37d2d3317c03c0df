/**
 * Text from a user's files (names, ids, descriptions, queries, file paths, model names, dataset
 * labels) reaches EVALUATION.md and FAILURE_ANALYSIS.md only through this module, so that no such
 * string can start a block (a heading, a list, a quote, a code block, a table row), split a table
 * cell, or bring in HTML. `escapeMarkdown` is the one escaping function; `code` shows user text as
 * inline code, and `escapeProse` keeps the `code` spans that descriptions are written with.
 * Every markdown writer is listed in test/report/markdown/injection.test.ts, which parses what
 * each writes with a GFM parser.
 */
import { LINE_BREAKS } from "../../memory/index.js";

/** Any line break a renderer or editor may honour, CR LF counted once. */
const LINE_BREAK = new RegExp(`\\r\\n|[${LINE_BREAKS}]`, "g");

/** Characters with a meaning anywhere in a line: escapes, code spans, table cells, links, HTML. */
const INLINE: Record<string, string> = {
  "\\": "\\\\",
  "`": "\\`",
  "|": "\\|",
  "[": "\\[",
  "]": "\\]",
  "<": "&lt;",
  "&": "&amp;",
};

/**
 * What makes a block when it starts a line: a heading, a quote, a list item (bullet or numbered),
 * a thematic break or setext underline, a fence; and leading whitespace, which can indent code.
 */
const BLOCK_START = /^(?:[#>+\-*=_~]|\d{1,9}(?=[.)])|[ \t])/;

/**
 * User text for a line of markdown: every line break becomes a space (as a renderer shows a soft
 * break), characters with inline meaning are escaped, and a first character that could start a
 * block is neutralised. The result renders as the text itself, wherever on a line it is placed.
 */
export function escapeMarkdown(text: string): string {
  const flat = escapeInline(text.replace(LINE_BREAK, " "));
  const start = BLOCK_START.exec(flat);
  if (start === null) return flat;
  const [lead] = start;
  // A number keeps its digits; the list delimiter after it is escaped instead.
  if (/^\d/.test(lead)) return `${lead}\\${flat.slice(lead.length)}`;
  if (lead === " " || lead === "\t") return `&#${lead.charCodeAt(0)};${flat.slice(1)}`;
  return `\\${flat}`;
}

/**
 * User text as inline code. Inside a code span nothing is interpreted, so only what ends the span
 * or the line matters: line breaks become spaces, and the fence is one backtick longer than the
 * longest run in the text. (A pipe inside a table cell is escaped by the table.)
 */
export function code(text: string): string {
  const flat = text.replace(LINE_BREAK, " ");
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  // CommonMark strips one space from each side of a span that starts and ends with one.
  const padded = flat.startsWith("`") || flat.endsWith("`") || (/^ .* $/s.test(flat) && flat.trim() !== "") ? ` ${flat} ` : flat;
  return `${fence}${padded}${fence}`;
}

/**
 * A description written by a user: it may mark names as `code`, as the scenario files do. Each
 * pair of single backticks on one line becomes a code span; everything else, stray backticks
 * included, is escaped.
 */
export function escapeProse(text: string): string {
  const flat = text.replace(LINE_BREAK, " ");
  // Only the first part can start the line; the parts after a code span are mid-line.
  const part = (from: number, to?: number) => (from === 0 ? escapeMarkdown : escapeInline)(flat.slice(from, to));
  let out = "";
  let at = 0;
  for (const match of flat.matchAll(/`([^`]+)`/g)) {
    out += part(at, match.index) + code(match[1]!);
    at = match.index + match[0].length;
  }
  return out + part(at);
}

/** Text that does not start a line: inline escapes only. */
function escapeInline(text: string): string {
  return text.replace(/[\\`|[\]<&]/g, (ch) => INLINE[ch]!);
}

/** A path inside a link's destination: characters that would end or break it are percent-encoded. */
export function linkDestination(path: string): string {
  return path.replace(/[\s()<>\\%]|[^\x20-\x7e]/gu, (ch) =>
    ch.length === 1 && ch < "\x80" ? `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}` : encodeURIComponent(ch.replace(/\p{Surrogate}/u, "\ufffd")),
  );
}

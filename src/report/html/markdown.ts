import MarkdownIt from "markdown-it";

/**
 * Markdown from user files (descriptions, findings) as HTML. Raw HTML is off, so a description
 * cannot inject markup: `<b>` arrives as text. markdown-it also refuses javascript:, vbscript:,
 * file: and data: links.
 */
const renderer = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** A block of markdown: paragraphs, lists, code. */
export function markdownBlock(text: string): string {
  return renderer.render(text);
}

/** One line of markdown inside other markup: emphasis, code spans, links, no paragraphs. */
export function markdownInline(text: string): string {
  return renderer.renderInline(text);
}

import MarkdownIt, { type RendererRule, type Token } from "markdown-it";

/**
 * Markdown from user files (experiment, scenario, ablation and conversation descriptions) and the
 * generated findings, as HTML that can neither fetch nor forge the page's structure:
 * - raw HTML is off, so `<b>` arrives as text;
 * - images are off, so `![i](http://…)` is never fetched;
 * - headings, rules and tables are off, so a description cannot pose as a section of the report;
 * - a link stays live only when it points inside the page (`#…`); any other link becomes its text
 *   followed by its target as code, so a reader sees where it would lead (a label cannot disguise
 *   it) and nothing in the page leads there. markdown-it already refuses javascript:, vbscript:,
 *   file: and data: targets, which then stay plain text.
 * Emphasis, code, lists, block quotes and paragraphs remain.
 */
function descriptionRenderer() {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  md.disable(["image", "heading", "lheading", "hr", "table", "html_block", "html_inline"]);
  const renderToken: RendererRule = (tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options);
  const defaultOpen = md.renderer.rules.link_open ?? renderToken;
  const defaultClose = md.renderer.rules.link_close ?? renderToken;
  const url = (href: string) => `<code class="url">${md.utils.escapeHtml(href)}</code>`;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const link = tokens[idx]!;
    if (inPage(link)) return defaultOpen(tokens, idx, options, env, self);
    // An autolink's text is its target, so the text itself is shown as the target.
    return link.markup === "autolink" ? '<code class="url">' : "";
  };
  md.renderer.rules.link_close = (tokens, idx, options, env, self) => {
    const link = openingOf(tokens, idx);
    if (inPage(link)) return defaultClose(tokens, idx, options, env, self);
    return link.markup === "autolink" ? "</code>" : ` (${url(href(link))})`;
  };
  return md;
}

/** Links do not nest, so the nearest opening before a close is its own. */
function openingOf(tokens: Token[], close: number): Token {
  for (let i = close - 1; i >= 0; i--) if (tokens[i]!.type === "link_open") return tokens[i]!;
  throw new Error("markdown-it closed a link it never opened");
}

function href(link: Token): string {
  return String(link.attrGet("href") ?? "");
}

function inPage(link: Token): boolean {
  return href(link).startsWith("#");
}

const renderer = descriptionRenderer();

/** A block of markdown: paragraphs, lists, code. */
export function markdownBlock(text: string): string {
  return renderer.render(text);
}

/** One line of markdown inside other markup: emphasis, code spans, links, no paragraphs. */
export function markdownInline(text: string): string {
  return renderer.renderInline(text);
}

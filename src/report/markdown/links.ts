import MarkdownIt, { type Token } from "markdown-it";

const parser = new MarkdownIt({ html: false });

function walk(tokens: readonly Token[], into: string[]): string[] {
  for (const token of tokens) {
    if (token.type === "image") into.push(String(token.attrGet("src") ?? ""));
    if (token.type === "link_open") into.push(String(token.attrGet("href") ?? ""));
    if (token.children) walk(token.children, into);
  }
  return into;
}

/** The target of every link and image in a markdown document, as written, in document order. */
export function markdownLinks(markdown: string): string[] {
  return walk(parser.parse(markdown, {}), []);
}

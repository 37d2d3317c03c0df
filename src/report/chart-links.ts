import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { globSync } from "tinyglobby";
import { byCodeUnit } from "../shared/order.js";
import { markdownLinks } from "./markdown/links.js";
import { CHARTS_DIR, LINKING_MARKDOWN } from "./paths.js";
import type { RenderedReports } from "./reporter.js";

/** A link target as a path from the root, or undefined for a link that leaves the repository. */
function targetPath(from: string, href: string): string | undefined {
  if (href === "" || href.startsWith("#") || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//")) return undefined;
  const bare = href.replace(/[?#].*$/, "");
  let decoded: string;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    decoded = bare;
  }
  return posix.normalize(posix.join(posix.dirname(from), decoded));
}

/**
 * Links from the markdown files to charts that do not exist: the generated files as rendered
 * now, the others (README.md, reports/*.md) as they are on disk. A chart exists when
 * this render produces it; the chart folder holds nothing else.
 */
export function brokenChartLinks(rendered: RenderedReports, root: string): string[] {
  const produced = new Set(rendered.files.map((f) => f.path));
  const documents = new Map<string, string>();
  for (const f of rendered.files) if (f.path.endsWith(".md")) documents.set(f.path, String(f.content));
  for (const path of globSync([...LINKING_MARKDOWN], { cwd: root }).sort(byCodeUnit)) {
    if (!documents.has(path)) documents.set(path, readFileSync(join(root, path), "utf8"));
  }
  const problems: string[] = [];
  for (const [path, markdown] of documents) {
    for (const href of markdownLinks(markdown)) {
      const target = targetPath(path, href);
      if (target === undefined || !target.startsWith(`${CHARTS_DIR}/`)) continue;
      const exists = produced.has(target) || (!owned(rendered, target) && existsSync(join(root, target)));
      if (!exists) problems.push(`${path} links to ${target}, a chart that the current results do not produce`);
    }
  }
  return problems;
}

function owned(rendered: RenderedReports, path: string): boolean {
  return rendered.owned.some((folder) => path.startsWith(`${folder}/`));
}

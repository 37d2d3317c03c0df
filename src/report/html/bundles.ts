import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

export interface BrowserBundles {
  vega: string;
}

let cached: BrowserBundles | undefined;

/**
 * The minified UMD build that Vega publishes for browsers, found next to the package's entry
 * point (its `exports` map does not expose the build folder). Inlining it keeps the report
 * working from file:// with no network. Charts arrive compiled to Vega, so Vega-Lite's compiler
 * stays out of the page.
 */
export function browserBundles(): BrowserBundles {
  cached ??= { vega: readFileSync(join(dirname(require.resolve("vega")), "vega.min.js"), "utf8") };
  return cached;
}

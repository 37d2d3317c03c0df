import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

export interface BrowserBundles {
  vega: string;
  vegaLite: string;
}

let cached: BrowserBundles | undefined;

/**
 * The minified UMD builds that the packages publish for browsers, found next to each package's
 * entry point (their `exports` maps do not expose the build folder). Inlining them keeps the
 * report working from file:// with no network; together they are under 1 MB.
 */
export function browserBundles(): BrowserBundles {
  cached ??= {
    vega: readFileSync(join(dirname(require.resolve("vega")), "vega.min.js"), "utf8"),
    vegaLite: readFileSync(join(dirname(require.resolve("vega-lite")), "vega-lite.min.js"), "utf8"),
  };
  return cached;
}

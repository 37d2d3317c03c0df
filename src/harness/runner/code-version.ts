import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { globSync } from "tinyglobby";
import { PROJECT_ROOT } from "../../shared/paths.js";

let cached: string | undefined;

/**
 * A hash of the source code and the lockfile. A resumed run reuses journalled trials only when
 * it was made by the same code, so an edit between an interrupted run and its resumption can
 * never mix trials of two versions in one results file.
 */
export function codeVersion(): string {
  if (cached === undefined) {
    const hash = createHash("sha256");
    const files = globSync(["src/**/*", "package-lock.json"], { cwd: PROJECT_ROOT, onlyFiles: true }).sort();
    for (const file of files) hash.update(file).update("\0").update(readFileSync(join(PROJECT_ROOT, file))).update("\0");
    cached = hash.digest("hex");
  }
  return cached;
}

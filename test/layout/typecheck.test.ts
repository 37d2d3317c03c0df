/**
 * The project type-checks: `tsc --noEmit` over tsconfig.json, as `npm run typecheck` runs it.
 * It runs as a test so that the compiler takes a core beside the other test files instead of
 * holding up the suite for its own ten seconds; a type error fails `npm test` as one failed test
 * whose message lists the errors.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { REPO_ROOT } from "../harness/temp-files.js";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

it("type-checks with tsc --noEmit, without an error", async () => {
  const outcome = await promisify(execFile)(process.execPath, [tsc, "--noEmit"], { cwd: REPO_ROOT, maxBuffer: 64 * 2 ** 20 }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? String(error) }),
  );
  expect(outcome.stdout).toBe("");
  expect(outcome.code).toBe(0);
});

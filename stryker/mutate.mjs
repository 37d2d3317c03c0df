/*
 * `npm run mutate [-- stryker options]`: one Stryker run (all configured files, or the folder
 * `--mutate "src/memory/rank/**\/*.ts"` names), its JSON report kept under reports/mutation/runs/
 * by what it mutated, so runs of several folders can be merged by `npm run mutate:score`; then
 * this run's score with the equivalent mutants set apart, failing below the bar.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { RUNS } from "./score.mjs";

const args = process.argv.slice(2);
const at = args.indexOf("--mutate");
// "src/memory/**/*.ts,!src/memory/rank/**/*.ts" → "src-memory-not-src-memory-rank".
const name = at >= 0 && args[at + 1] ? args[at + 1].replace(/\*\*?\/?|\.ts\b|\{[^}]*\}/g, "").replace(/!/g, "not-").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") : "all";
const stryker = spawnSync("npx", ["stryker", "run", ...args], { stdio: "inherit" });
if (stryker.status !== 0) process.exit(stryker.status ?? 1);
mkdirSync(RUNS, { recursive: true });
const kept = join(RUNS, `${name || "all"}.json`);
copyFileSync("reports/mutation/mutation.json", kept);
const scored = spawnSync(process.execPath, ["stryker/score.mjs", kept], { stdio: "inherit" });
process.exit(scored.status ?? 1);

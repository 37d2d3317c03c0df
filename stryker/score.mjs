/*
 * The mutation score, with the listed equivalent mutants set apart: `npm run mutate:score` merges
 * the JSON reports of several runs (one per folder, say) into one score, per folder and overall,
 * and fails below 90%. Stryker's own score counts an equivalent survivor as a gap no test can
 * close; here it is shown with its reason and left out of both sides of the ratio.
 *
 *   node stryker/score.mjs [report.json …]   (default: every report under reports/mutation/runs/)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { equivalenceReason } from "./equivalent-mutants.mjs";

export const RUNS = "reports/mutation/runs";
const BREAK = 90;
const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

/** Every mutant of the given reports, the latest report's version of a file winning. */
export function mergeReports(paths) {
  const files = new Map();
  for (const path of paths) {
    const report = JSON.parse(readFileSync(path, "utf8"));
    for (const [file, entry] of Object.entries(report.files)) files.set(file.replaceAll("\\", "/"), entry);
  }
  return files;
}

/** Counts per folder and overall; survivors that are listed as equivalent counted apart, with reasons. */
export function score(files) {
  const folders = new Map();
  const equivalent = [];
  const survivors = [];
  const add = (key, field) => {
    const counts = folders.get(key) ?? { detected: 0, undetected: 0, equivalent: 0 };
    counts[field]++;
    folders.set(key, counts);
  };
  for (const [file, { source, mutants }] of files) {
    for (const mutant of mutants) {
      const reason = UNDETECTED.has(mutant.status) ? equivalenceReason(file, source, mutant) : undefined;
      const field = reason ? "equivalent" : DETECTED.has(mutant.status) ? "detected" : UNDETECTED.has(mutant.status) ? "undetected" : null;
      if (field === null) continue;
      add(dirname(file), field);
      add("all", field);
      const where = `${file}:${mutant.location.start.line} ${mutant.mutatorName} → ${JSON.stringify(mutant.replacement)}`;
      if (reason) equivalent.push(`${where}: ${reason}`);
      else if (field === "undetected") survivors.push(`${where} (${mutant.status})`);
    }
  }
  return { folders, equivalent, survivors };
}

const percent = ({ detected, undetected }) => (detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected));

if (import.meta.url === `file://${process.argv[1]}`) {
  const given = process.argv.slice(2);
  const paths = given.length > 0 ? given : existsSync(RUNS) ? readdirSync(RUNS).filter((f) => f.endsWith(".json")).sort().map((f) => join(RUNS, f)) : [];
  if (paths.length === 0) {
    process.stderr.write(`mutate:score: no reports (run npm run mutate first, or name report files)\n`);
    process.exit(2);
  }
  const { folders, equivalent, survivors } = score(mergeReports(paths));
  const lines = ["| folder | score | detected | survived | equivalent |", "| --- | --- | --- | --- | --- |"];
  for (const [folder, counts] of [...folders].sort(([a], [b]) => (a === "all") - (b === "all") || a.localeCompare(b))) {
    lines.push(`| ${folder} | ${percent(counts).toFixed(2)}% | ${counts.detected} | ${counts.undetected} | ${counts.equivalent} |`);
  }
  process.stdout.write(`${lines.join("\n")}\n\nsurviving (${survivors.length}):\n${survivors.map((s) => `  ${s}\n`).join("")}`);
  process.stdout.write(`equivalent (${equivalent.length}):\n${equivalent.map((s) => `  ${s}\n`).join("")}`);
  const all = percent(folders.get("all") ?? { detected: 0, undetected: 0 });
  process.stdout.write(`\nmutation score ${all.toFixed(2)}% over ${paths.length} report(s); the bar is ${BREAK}%\n`);
  if (all < BREAK) process.exit(1);
}

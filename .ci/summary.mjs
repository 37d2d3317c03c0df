// Prints "N passed, N failed" from vitest's JSON report. A failure outside vitest (the type check
// or `npm run check`) counts as one more failed test, so a red run never reads as green.
import { existsSync, readFileSync } from "node:fs";

const [file, statusText] = process.argv.slice(2);
const status = Number(statusText);
let passed = 0;
let failed = 0;
if (existsSync(file)) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed = report.numPassedTests;
  failed = report.numFailedTests;
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(status === 0 && failed === 0 ? 0 : 1);

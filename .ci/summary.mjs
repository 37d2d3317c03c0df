// Prints "N passed, N failed" from vitest's JSON report. A failure outside vitest (the type check
// or `npm run check`) counts as one more failed test, so a red run never reads as green.
//
// Above that line it names each failed test with the start of its message: CI keeps only the end
// of a run's output, and vitest's own account of a failure is printed long before it.
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";

const SHOWN_FAILURES = 10;
const MESSAGE_LINES = 6;

const [file, statusText] = process.argv.slice(2);
const status = Number(statusText);
let passed = 0;
let failed = 0;
if (existsSync(file)) {
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed = report.numPassedTests;
  failed = report.numFailedTests;
  const failures = report.testResults.flatMap((suite) => {
    const where = relative(process.cwd(), suite.name);
    const tests = suite.assertionResults.filter((test) => test.status === "failed");
    const own = tests.map((test) => ({ where: `${where} › ${test.fullName}`, message: test.failureMessages.join("\n") }));
    // A file that fails as a whole (a hook, an import) may have no failed test to carry its message.
    return own.length === 0 && suite.status === "failed" ? [{ where, message: suite.message ?? "" }] : own;
  });
  for (const { where, message } of failures.slice(0, SHOWN_FAILURES)) {
    const lines = message.split("\n").filter((line) => line.trim() !== "").slice(0, MESSAGE_LINES);
    console.log([`FAILED ${where}`, ...lines.map((line) => `    ${line}`)].join("\n"));
  }
  if (failures.length > SHOWN_FAILURES) console.log(`… and ${failures.length - SHOWN_FAILURES} more failures`);
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(status === 0 && failed === 0 ? 0 : 1);

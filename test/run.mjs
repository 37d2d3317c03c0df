#!/usr/bin/env node
// `npm test`: vitest, and `npm run check` beside it rather than after it.
//
// The two are independent (the check re-runs the committed experiments in this folder; the tests
// work in sandboxes of their own), and neither keeps both cores busy alone: vitest waits on the
// processes its tests start, the check on its slowest worker. Side by side they finished 40 s
// sooner on a fresh clone on a 2-core machine (473 s against 219 + 295). The check runs at a
// lower priority (nice 10), so the tests, some of which time what they start, get the CPU first.
// Its output is held while vitest prints and follows it, so each reads as it would alone. The exit
// code is vitest's, or else the check's.
//
// The check re-runs LoCoMo on a sample of three of its ten conversations (`check --sample 3`),
// which cuts its embedding and trials by about three quarters; every hand-made scenario and report
// is still checked in full. RECOLLECT_CHECK=full runs the whole check, as CI does (.ci/run), so
// nothing lands that the full check would fail.
//
// Arguments go to vitest (`npm test -- test/memory` runs those tests, and the check).
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";

const NICENESS = 10;
/** Conversations of each dataset experiment the default check re-runs. */
const SAMPLE = 3;

/** The check `npm test` runs: on a sample of each dataset's conversations, or all of them with RECOLLECT_CHECK=full. */
export function checkArgv(env = process.env) {
  const mode = env.RECOLLECT_CHECK || "sample";
  if (mode === "full") return ["npm", "run", "check"];
  if (mode === "sample") return ["npm", "run", "check", "--", "--sample", String(SAMPLE)];
  throw new Error(`RECOLLECT_CHECK expects "full" or "sample", got "${mode}"`);
}

/**
 * Runs `first` with its output passed through and `second` (lower in priority) beside it, its
 * output held until `first` ends. Resolves to the exit code: first's when it failed, else second's.
 */
export async function runSideBySide(first, second, { out = process.stdout, err = process.stderr } = {}) {
  const held = [];
  let holding = true;
  const later = start(niced(second), "pipe", err);
  for (const [stream, to] of [
    [later.child.stdout, out],
    [later.child.stderr, err],
  ]) {
    stream.on("data", (chunk) => (holding ? held.push([to, chunk]) : to.write(chunk)));
  }
  // Into this process's own streams, vitest inherits them, so that it sees the terminal it prints to.
  const inherit = out === process.stdout && err === process.stderr;
  const earlier = start(first, inherit ? "inherit" : "pipe", err);
  if (!inherit) {
    earlier.child.stdout.on("data", (chunk) => out.write(chunk));
    earlier.child.stderr.on("data", (chunk) => err.write(chunk));
  }
  const firstCode = await earlier.exit;
  holding = false;
  for (const [to, chunk] of held) to.write(chunk);
  const secondCode = await later.exit;
  return firstCode !== 0 ? firstCode : secondCode;
}

/** The command run through nice(1), so that every thread it starts inherits the priority. */
function niced(command) {
  return ["nice", "-n", String(NICENESS), ...command];
}

function start([file, ...args], stdout, err) {
  const child = spawn(file, args, { stdio: ["ignore", stdout, stdout] });
  const exit = new Promise((resolve) => {
    child.on("error", (error) => {
      err.write(`test: could not start ${file}: ${error.message}\n`);
      resolve(127);
    });
    // A process ended by a signal exits as a shell reports it: 128 + the signal's number.
    child.on("close", (code, signal) => resolve(code ?? 128 + (constants.signals[signal] ?? 0)));
  });
  return { child, exit };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let check;
  try {
    check = checkArgv();
  } catch (error) {
    process.stderr.write(`test: ${error.message}\n`);
    process.exit(2);
  }
  const code = await runSideBySide(["npx", "vitest", "run", ...process.argv.slice(2)], check);
  process.exit(code);
}

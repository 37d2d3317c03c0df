import { closeSync, openSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startHeartbeat } from "../../../src/cli/heartbeat/start.js";
import { newPhase } from "../../../src/cli/progress-line.js";
import { useTempDir } from "../../harness/temp-files.js";

/** Keeps this thread busy, as a long synchronous computation does, so its own timers cannot fire. */
function blockThisThread(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

/**
 * Keeps this thread busy until `file` holds `count` lines, or `limitMs` pass. The lines are
 * waited for rather than a fixed time: a loaded machine may leave the heartbeat thread off the
 * CPU for much of a second or two, and the heartbeat is only late then, not broken.
 */
function blockThisThreadUntilLines(file: string, count: number, limitMs: number): void {
  const until = Date.now() + limitMs;
  while (linesOf(file).length < count && Date.now() < until) {
    // busy: the file is read, but this thread's timers never get a turn
  }
}

/** The whole lines in `file`: a line being written counts once its newline is in. */
const linesOf = (file: string) => readFileSync(file, "utf8").split("\n").slice(0, -1);

describe("the heartbeat thread", () => {
  const dir = useTempDir("recollect-heartbeat-");

  it("keeps writing where things stand while the main thread is blocked", async () => {
    const file = dir.path("progress.log");
    const fd = openSync(file, "w");
    const heartbeat = startHeartbeat(fd, 200);
    try {
      await heartbeat.ready;
      heartbeat.report(newPhase("reports", 6, "steps", "statistics core", Date.now()));
      // Two lines, each after 200 ms of silence: a repeat, not just one line. Without a heartbeat
      // that works while this thread is blocked, none ever comes, and the limit ends the wait.
      blockThisThreadUntilLines(file, 2, 60_000);
    } finally {
      heartbeat.stop();
    }
    closeSync(fd);
    const lines = linesOf(file);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(/^reports: 0\/6 steps · statistics core · \d+ s$/);
  });

  it("stays quiet while the main thread writes often enough itself", async () => {
    const file = dir.path("quiet.log");
    const fd = openSync(file, "w");
    const heartbeat = startHeartbeat(fd, 60_000);
    try {
      await heartbeat.ready;
      heartbeat.report(newPhase("core", 10, "trials", "", Date.now()));
      heartbeat.wrote(Date.now());
      blockThisThread(300);
    } finally {
      heartbeat.stop();
    }
    closeSync(fd);
    expect(readFileSync(file, "utf8")).toBe("");
  });
});

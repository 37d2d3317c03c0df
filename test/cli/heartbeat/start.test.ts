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

describe("the heartbeat thread", () => {
  const dir = useTempDir("recollect-heartbeat-");

  it("keeps writing where things stand while the main thread is blocked", async () => {
    const file = dir.path("progress.log");
    const fd = openSync(file, "w");
    const heartbeat = startHeartbeat(fd, 200);
    try {
      await heartbeat.ready;
      heartbeat.report(newPhase("reports", 6, "steps", "statistics core", Date.now()));
      blockThisThread(1_500);
    } finally {
      heartbeat.stop();
    }
    closeSync(fd);
    const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
    // Every 200 ms of silence in 1.5 s: several lines, however loaded the machine is.
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

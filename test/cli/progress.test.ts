import { describe, expect, it } from "vitest";
import type { Heartbeat } from "../../src/cli/heartbeat/start.js";
import { progress } from "../../src/cli/progress.js";

/** A stream that records what is written to it; a terminal when `isTTY`. */
function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  const stream = {
    isTTY,
    columns: 100,
    write(chunk: string) {
      writes.push(String(chunk));
      return true;
    },
    cursorTo: () => true,
    moveCursor: () => true,
    clearLine: () => true,
    clearScreenDown: () => true,
    on: () => stream,
    removeListener: () => stream,
  };
  return { stream: stream as unknown as NodeJS.WriteStream, writes };
}

/** A line without its trailing elapsed time (and the line break). */
const untimed = (line: string) => line.replace(/( · \d+ s)?\n$/, "");

/** A clock that stands still unless a test moves it. */
function clock(start = 0) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("progress on a stream that is not a terminal (CI, a pipe, a log file)", () => {
  it("writes a line when a phase starts and at every tenth of it, with no control characters", () => {
    const { stream, writes } = fakeStream(false);
    const time = clock();
    const bar = progress({ stream, now: time.now, log: () => undefined });
    bar.phase("core", undefined, "trials", "starting workers");
    for (let done = 0; done <= 440; done++) bar.update(done, done > 0 ? "" : "starting workers", 440);
    bar.stop();
    expect(writes[0]).toBe("core: starting workers · 0 s\n");
    expect(writes[1]).toBe("core: 0/440 trials · starting workers · 0 s\n");
    expect(writes.slice(2).map((w) => w.split(" · ")[0])).toEqual([
      "core: 1/440 trials",
      ...Array.from({ length: 10 }, (_, i) => `core: ${44 * (i + 1)}/440 trials`),
    ]);
    for (const line of writes) expect(line).toMatch(/^[\x20-\x7e·]+\n$/);
  });

  it("shows the time left once trials run", () => {
    const { stream, writes } = fakeStream(false);
    const time = clock();
    const bar = progress({ stream, now: time.now, log: () => undefined });
    bar.phase("core", 100, "trials");
    bar.update(0);
    time.advance(8_000);
    bar.update(1);
    time.advance(1_000);
    for (let done = 2; done <= 10; done++) bar.update(done);
    expect(writes.at(-1)).toBe("core: 10/100 trials · 9 s · ETA 10 s\n");
  });

  it("writes a line per step of a short phase, naming the step", () => {
    const { stream, writes } = fakeStream(false);
    const bar = progress({ stream, now: clock().now, log: () => undefined });
    bar.phase("reports", undefined, "steps", "reading results");
    bar.update(0, "statistics core", 3);
    bar.update(1, "charts");
    bar.update(2, "html");
    bar.update(3, "done");
    expect(writes.map(untimed)).toEqual([
      "reports: reading results",
      "reports: 0/3 steps · statistics core",
      "reports: 1/3 steps · charts",
      "reports: 2/3 steps · html",
      "reports: 3/3 steps · done",
    ]);
  });

  it("starts from where a resumed run already is", () => {
    const { stream, writes } = fakeStream(false);
    const bar = progress({ stream, now: clock().now, log: () => undefined });
    bar.phase("resumed", 40, "trials");
    bar.update(17);
    bar.update(18);
    bar.update(20);
    expect(writes.map((w) => w.split(" · ")[0])).toEqual(["resumed: 0/40 trials", "resumed: 17/40 trials", "resumed: 20/40 trials"]);
  });

  it("passes the command's own lines to its log", () => {
    const lines: string[] = [];
    const bar = progress({ stream: fakeStream(false).stream, log: (line) => lines.push(line) });
    bar.log("core: 880 trials in 7.0 s");
    expect(lines).toEqual(["core: 880 trials in 7.0 s"]);
  });

  it("writes nothing before the first phase or on stop", () => {
    const { stream, writes } = fakeStream(false);
    const bar = progress({ stream, log: () => undefined });
    bar.update(3);
    bar.stop();
    expect(writes).toEqual([]);
  });
});

describe("progress on a terminal", () => {
  it("draws a bar with the label, the trial count and the time left instead of lines", () => {
    const { stream, writes } = fakeStream(true);
    const time = clock();
    const bar = progress({ stream, now: time.now, log: () => undefined });
    bar.phase("core", 10, "trials");
    bar.update(0);
    time.advance(1_000);
    bar.update(1);
    time.advance(1_000);
    bar.update(3);
    bar.stop();
    const output = writes.join("");
    expect(output).toContain("core [");
    expect(output).toContain("3/10 trials");
    expect(output).toContain("ETA 4 s");
    expect(output).not.toContain("core: 3/10 trials\n");
  });

  it("shows a status line until the count is known, then the bar", () => {
    const { stream, writes } = fakeStream(true);
    const bar = progress({ stream, now: clock().now, log: () => undefined });
    bar.phase("core", undefined, "trials", "starting workers");
    expect(writes.join("")).toContain("core: starting workers");
    bar.update(2, "", 10);
    bar.stop();
    expect(writes.join("")).toContain("2/10 trials");
  });

  it("lifts the bar to write the command's own lines", () => {
    const { stream } = fakeStream(true);
    const lines: string[] = [];
    const bar = progress({ stream, now: clock().now, log: (line) => lines.push(line) });
    bar.phase("core", 10, "trials");
    bar.log("skipped experiments/locomo.yaml");
    bar.stop();
    expect(lines).toEqual(["skipped experiments/locomo.yaml"]);
  });
});

describe("the heartbeat thread of a progress that is not on a terminal", () => {
  /** A heartbeat that records what it is told, and how often one was started. */
  function recordingHeartbeat() {
    const told: string[] = [];
    let starts = 0;
    const start = (): Heartbeat => {
      starts++;
      return {
        report: (phase) => told.push(phase.label),
        wrote: () => undefined,
        ready: Promise.resolve(),
        stop: () => told.push("stop"),
      };
    };
    return { start, told, starts: () => starts };
  }

  it("is not started by a command refused before its first phase", () => {
    const beat = recordingHeartbeat();
    const bar = progress({ stream: fakeStream(false).stream, heartbeatFd: 2, startHeartbeat: beat.start, log: () => undefined });
    bar.log("a line of output");
    bar.stop();
    expect(beat.starts()).toBe(0);
  });

  it("starts once, with the first phase, is told every phase, and stops with the progress", () => {
    const beat = recordingHeartbeat();
    const bar = progress({ stream: fakeStream(false).stream, heartbeatFd: 2, startHeartbeat: beat.start, log: () => undefined });
    bar.phase("core", 2, "trials");
    bar.update(1);
    bar.phase("reports", 3, "steps");
    bar.stop();
    expect(beat.starts()).toBe(1);
    expect(beat.told).toEqual(["core", "core", "reports", "stop"]);
  });
});

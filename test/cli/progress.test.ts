import { describe, expect, it } from "vitest";
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

describe("progress on a stream that is not a terminal (CI, a pipe, a log file)", () => {
  it("writes a plain line at the start and at every tenth of the way, with no control characters", () => {
    const { stream, writes } = fakeStream(false);
    const bar = progress("core", stream);
    for (let done = 0; done <= 440; done++) bar.update(done, 440);
    bar.stop();
    expect(writes).toEqual(Array.from({ length: 11 }, (_, i) => `core: ${44 * i}/440 trials\n`));
    for (const line of writes) expect(line).toMatch(/^[\x20-\x7e]+\n$/);
  });

  it("starts from where a resumed run already is", () => {
    const { stream, writes } = fakeStream(false);
    const bar = progress("resumed", stream);
    bar.update(17, 40);
    bar.update(18, 40);
    bar.update(20, 40);
    expect(writes).toEqual(["resumed: 17/40 trials\n", "resumed: 20/40 trials\n"]);
  });

  it("writes one line for an empty grid", () => {
    const { stream, writes } = fakeStream(false);
    progress("empty", stream).update(0, 0);
    expect(writes).toEqual(["empty: 0/0 trials\n"]);
  });

  it("writes nothing before the first update or on stop", () => {
    const { stream, writes } = fakeStream(false);
    progress("quiet", stream).stop();
    expect(writes).toEqual([]);
  });
});

describe("progress on a terminal", () => {
  it("draws a bar with the label and the trial count instead of lines", () => {
    const { stream, writes } = fakeStream(true);
    const bar = progress("core", stream);
    bar.update(0, 10);
    bar.update(3, 10);
    bar.stop();
    const output = writes.join("");
    expect(output).toContain("core [");
    expect(output).toContain("3/10 trials");
    expect(output).not.toContain("core: 3/10 trials\n");
  });

  it("does nothing on stop when no trial was counted", () => {
    const { stream, writes } = fakeStream(true);
    progress("idle", stream).stop();
    expect(writes).toEqual([]);
  });
});

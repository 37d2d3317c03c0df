import { describe, expect, it } from "vitest";
import { advance, estimateLeft, formatDuration, newPhase, phaseLine } from "../../src/cli/progress-line.js";

describe("a phase's progress line", () => {
  it("names what runs while the step count is not known yet", () => {
    const phase = newPhase("core", undefined, "trials", "starting workers", 1_000);
    expect(phaseLine(phase, 3_400)).toBe("core: starting workers · 2 s");
  });

  it("counts steps, and estimates the time left from the rate since the first finished step", () => {
    const phase = newPhase("core", 880, "trials", "starting workers", 0);
    advance(phase, 0, undefined, undefined, 0);
    expect(phaseLine(phase, 9_000)).toBe("core: 0/880 trials · starting workers · 9 s");
    // The first trial finishes after 10 s of start-up; the rate is measured from there.
    advance(phase, 1, "", undefined, 10_000);
    expect(phaseLine(phase, 10_000)).toBe("core: 1/880 trials · 10 s");
    advance(phase, 89, "", undefined, 12_000);
    // 88 trials in 2 s: 791 left take 18 s.
    expect(estimateLeft(phase, 12_000)).toBeCloseTo(17_977, 0);
    expect(phaseLine(phase, 12_000)).toBe("core: 89/880 trials · 12 s · ETA 18 s");
    advance(phase, 880, undefined, undefined, 30_000);
    expect(phaseLine(phase, 31_000)).toBe("core: 880/880 trials · 31 s");
  });

  it("measures a resumed run's rate from its own first trial, not from the journalled ones", () => {
    const phase = newPhase("core", 40, "trials", "", 0);
    advance(phase, 30, undefined, undefined, 0);
    advance(phase, 31, undefined, undefined, 5_000);
    expect(estimateLeft(phase, 5_000)).toBeUndefined();
    advance(phase, 35, undefined, undefined, 9_000);
    expect(estimateLeft(phase, 9_000)).toBe(5_000);
  });

  it("never lets the estimate grow while no step finishes: it counts down, then is not shown until a step finishes", () => {
    const phase = newPhase("locomo", 100, "trials", "", 0);
    advance(phase, 0, undefined, undefined, 0);
    advance(phase, 1, undefined, undefined, 1_000);
    advance(phase, 11, undefined, undefined, 11_000);
    // 10 trials in 10 s: 89 left take 89 s. Then one trial stands still for two minutes.
    const shown: number[] = [];
    for (let at = 11_000; at <= 131_000; at += 500) {
      const left = estimateLeft(phase, at);
      if (left !== undefined) shown.push(left);
      expect(phaseLine(phase, at)).toMatch(left === undefined ? /· \d+ (min \d+ )?s$/ : /ETA \d+ (min \d+ )?s$/);
    }
    expect(shown[0]).toBe(89_000);
    expect(shown.every((left, i) => i === 0 || left <= shown[i - 1]!)).toBe(true);
    expect(estimateLeft(phase, 100_000)).toBeUndefined();
    // The next trial gives a fresh estimate at the rate up to it.
    advance(phase, 12, undefined, undefined, 131_000);
    expect(estimateLeft(phase, 131_000)).toBeCloseTo((88 * 130_000) / 11, 6);
  });

  it("takes the step count when it becomes known", () => {
    const phase = newPhase("reports", undefined, "steps", "reading results", 0);
    advance(phase, 0, "statistics core", 6, 1_000);
    expect(phaseLine(phase, 1_000)).toBe("reports: 0/6 steps · statistics core · 1 s");
  });

  it("writes minutes past the first one", () => {
    expect(formatDuration(59_400)).toBe("59 s");
    expect(formatDuration(125_000)).toBe("2 min 05 s");
  });
});

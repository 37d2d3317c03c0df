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

import { describe, expect, it } from "vitest";
import { CLOCK_MAX, CLOCK_MIN, durationSchema, MAX_DURATION_MS, parseDuration } from "../../src/harness/duration.js";

describe("parseDuration", () => {
  it("reads a number and a unit into milliseconds", () => {
    expect(parseDuration("250ms")).toBe(250);
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("90m")).toBe(5_400_000);
    expect(parseDuration("2h")).toBe(7_200_000);
    expect(parseDuration("3d")).toBe(259_200_000);
    expect(parseDuration("1.5w")).toBe(907_200_000);
    expect(parseDuration(" 2 h ")).toBe(7_200_000);
  });

  it("keeps the sign of a negative offset", () => {
    expect(parseDuration("-3d")).toBe(-259_200_000);
  });

  it("gives undefined for anything that is not a duration", () => {
    for (const text of ["", "2", "2 days", "h", "2y", "two hours", "1e3s"]) expect(parseDuration(text), text).toBeUndefined();
  });
});

describe("durationSchema", () => {
  it("takes a plain number as hours", () => {
    expect(durationSchema.parse(1.5)).toBe(5_400_000);
  });

  it("explains what it expected when the text is not a duration", () => {
    const parsed = durationSchema.safeParse("2 days");
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0].message).toBe('expected a duration such as "90m", "2h" or "3d", got "2 days"');
  });
});

describe("the virtual clock's bounds", () => {
  it("span the years a four-digit ISO date can write", () => {
    expect(new Date(CLOCK_MIN).toISOString()).toBe("0001-01-01T00:00:00.000Z");
    expect(new Date(CLOCK_MAX).toISOString()).toBe("9999-12-31T23:59:59.999Z");
    expect(MAX_DURATION_MS).toBe(CLOCK_MAX - CLOCK_MIN);
  });

  it("refuse a duration longer than the whole clock, in text or in hours", () => {
    for (const value of ["999999999999d", "-999999999999d", 1e300]) {
      const parsed = durationSchema.safeParse(value);
      expect(parsed.success, String(value)).toBe(false);
      expect(parsed.error!.issues[0].message).toBe(`${JSON.stringify(value)} is longer than the virtual clock, which runs from year 1 to 9999`);
    }
    expect(durationSchema.parse("3650000d")).toBe(3_650_000 * 86_400_000);
  });
});

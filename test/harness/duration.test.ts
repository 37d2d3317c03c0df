import { describe, expect, it } from "vitest";
import { durationSchema, parseDuration } from "../../src/harness/duration.js";

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

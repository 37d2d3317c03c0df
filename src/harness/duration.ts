import { z } from "zod";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const DURATION = /^(-?\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)$/;

/**
 * The virtual clock runs within the years a four-digit ISO date can write, 0001 to 9999. The
 * bound keeps every time far inside JavaScript's date range, so a time can always be written as a
 * date, and an absurd duration is refused rather than run.
 */
export const CLOCK_MIN = Date.parse("0001-01-01T00:00:00.000Z");
export const CLOCK_MAX = Date.parse("9999-12-31T23:59:59.999Z");
/** No one duration is longer than the whole clock. */
export const MAX_DURATION_MS = CLOCK_MAX - CLOCK_MIN;

/** Parses "90m", "2h", "-3d", "1.5w" into milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** Hours (a plain number in a file) or a duration string, in milliseconds; a problem for the file otherwise. */
export function durationMs(value: number | string): { ms: number } | { problem: string } {
  const ms = typeof value === "number" ? value * UNIT_MS.h : parseDuration(value);
  if (ms === undefined) return { problem: `expected a duration such as "90m", "2h" or "3d", got "${value}"` };
  if (!(Math.abs(ms) <= MAX_DURATION_MS)) {
    return { problem: `${JSON.stringify(value)} is longer than the virtual clock, which runs from year 1 to 9999` };
  }
  return { ms };
}

/** A duration in a YAML file: a string such as "2h" or a number of hours. */
export const durationSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const parsed = durationMs(value);
  if ("problem" in parsed) {
    ctx.addIssue({ code: "custom", message: parsed.problem });
    return z.NEVER;
  }
  return parsed.ms;
});

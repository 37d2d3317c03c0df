import { z } from "zod";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const DURATION = /^(-?\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)$/;

/** Parses "90m", "2h", "-3d", "1.5w" into milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** A duration in a YAML file: a string such as "2h" or a number of hours. */
export const durationSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  if (typeof value === "number") return value * UNIT_MS.h;
  const ms = parseDuration(value);
  if (ms === undefined) {
    ctx.addIssue({ code: "custom", message: `expected a duration such as "90m", "2h" or "3d", got "${value}"` });
    return z.NEVER;
  }
  return ms;
});

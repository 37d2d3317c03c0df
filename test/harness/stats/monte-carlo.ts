// Acceptance bands for the calibration tests. A simulated share (false positives, coverage,
// power) carries Monte-Carlo error that shrinks with the number of simulations, so each band is
// derived from that number rather than picked by eye: wide enough that a correct method passes,
// narrow enough that a wrong one fails.

/**
 * Standard errors of Monte-Carlo error a band allows on each side. Three leave a correct method
 * a 0.27% chance per band of falling outside by bad luck (the seeds are fixed, so this is the
 * chance that a harmless change to the random streams breaks a test).
 */
export const Z = 3;

export interface Band {
  lo: number;
  hi: number;
}

/**
 * The shares a method may show over `n` simulations when its true rate may lie anywhere in
 * [nominal − tolerance, nominal + tolerance]: from that range's low end minus Z binomial standard
 * errors √(p(1 − p)/n), taken at the low end, to its high end plus Z of them, taken at the high
 * end; clipped to [0, 1].
 */
export function shareBand(nominal: number, tolerance: number, n: number): Band {
  const low = nominal - tolerance;
  const high = nominal + tolerance;
  return {
    lo: Math.max(0, low - Z * Math.sqrt((low * (1 - low)) / n)),
    hi: Math.min(1, high + Z * Math.sqrt((high * (1 - high)) / n)),
  };
}

/** Ratios within `tolerance` of 1, widened by Z relative standard errors. */
export function ratioBand(tolerance: number, relativeSe: number): Band {
  return { lo: 1 - tolerance - Z * relativeSe, hi: 1 + tolerance + Z * relativeSe };
}

/** "2.3–8.2%", for test names. */
export function percent({ lo, hi }: Band): string {
  return `${(100 * lo).toFixed(1)}–${(100 * hi).toFixed(1)}%`;
}

/** The share of `flags` that are true. */
export function share(flags: readonly boolean[]): number {
  return flags.filter(Boolean).length / flags.length;
}

// Types for the score script's functions, so its test is type-checked.
export const RUNS: string;
export interface Counts {
  detected: number;
  undetected: number;
  equivalent: number;
}
export function mergeReports(paths: string[]): Map<string, { source: string; mutants: unknown[] }>;
export function score(files: Map<string, { source: string; mutants: unknown[] }>): {
  folders: Map<string, Counts>;
  equivalent: string[];
  survivors: string[];
};

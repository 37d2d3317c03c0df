// Types for the list of equivalent mutants, so the tests and scripts that read it are checked.
export interface EquivalentMutant {
  file: string;
  code: string;
  within?: string;
  mutator: string;
  replacements: string[];
  reason: string;
}
export interface ReportedMutant {
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}
export const EQUIVALENT_MUTANTS: EquivalentMutant[];
export function equivalenceReason(file: string, source: string, mutant: ReportedMutant): string | undefined;

// Synthetic data for the calibration tests: draws come from the seeded generator under test,
// so every run of the suite sees the same numbers.
import { sampleNormal, type Rng } from "../../../src/harness/stats/index.js";

export function normals(rng: Rng, n: number, mean = 0, sd = 1): number[] {
  return Array.from({ length: n }, () => sampleNormal(rng, mean, sd));
}

/**
 * Scores of two systems over the same n (ask, seed) pairs. Each system's scores are N(mean, 1);
 * within a pair they share a component, with correlation `rho`, as two ablations run on the same
 * ask and seed do. `shift` is added to the second system, in units of the score sd.
 */
export function pairedScores(
  rng: Rng,
  n: number,
  { rho, shift }: { rho: number; shift: number },
): { baseline: number[]; ablation: number[] } {
  const baseline: number[] = [];
  const ablation: number[] = [];
  for (let i = 0; i < n; i++) {
    const shared = Math.sqrt(rho) * sampleNormal(rng);
    baseline.push(shared + Math.sqrt(1 - rho) * sampleNormal(rng));
    ablation.push(shared + Math.sqrt(1 - rho) * sampleNormal(rng) + shift);
  }
  return { baseline, ablation };
}

import { EXACT_CLUSTER_MAX } from "./cluster-sign-flip.js";

/**
 * Two statistics this close, relative to the data's scale (Σ|t_c| over √Σt_c², as the exact
 * cluster sign-flip test measures its ties), are a tie and count as "at least as extreme", so a
 * single comparison's adjusted p is its marginal exact p even where rounding splits a tie.
 */
const TIE_TOLERANCE = 1e-9;

/**
 * Westfall–Young step-down maxT adjusted p-values over joint cluster sign flips, in input order.
 *
 * `totals[j][c]` is comparison j's total over cluster c (its items' mean differences summed, as
 * the exact cluster sign-flip test sums them), on one cluster order shared by every comparison; a
 * cluster where j has no items is 0. Under the global null every cluster's differences are as
 * likely to have come out with the opposite sign, jointly across comparisons (they share the
 * cluster's asks), so each of the 2^C sign vectors g is applied to every comparison at once:
 * T_j(g) = |Σ_c g_c·t_jc| / √(Σ_c t_jc²), self-normalised so that it is scale-free and √ is the
 * same under every g (0 when j's totals are all 0). One comparison's flipped statistic then
 * reaches its observed one exactly when the marginal exact test counts the flip, so its adjusted
 * p is its marginal p.
 *
 * Step-down: with the observed T sorted descending, t_(1) ≥ … ≥ t_(m), for each g the successive
 * maxima from the bottom u_(j)(g) = max_{k ≥ j} T_(k)(g); p_(j) = #{g : u_(j)(g) ≥ t_(j)} / 2^C,
 * then raised to the running maximum so adjusted values keep the observed order. Unlike Holm it
 * uses the dependence between comparisons that share clusters: with every comparison moving with
 * every cluster, the strongest's adjusted p is 2 / 2^C whatever the family's size. It controls the
 * family-wise error rate strongly, the sign flips' joint distribution being invariant under every
 * partial null of this kind (subset pivotality).
 */
export function westfallYoung(totals: readonly (readonly number[])[]): number[] {
  const m = totals.length;
  if (m === 0) return [];
  const clusters = totals[0].length;
  totals.forEach((row, j) => {
    if (row.length !== clusters) throw new RangeError(`westfallYoung: totals[${j}] has ${row.length} clusters, totals[0] has ${clusters}`);
    row.forEach((t, c) => {
      if (!Number.isFinite(t)) throw new RangeError(`westfallYoung: totals[${j}][${c}] must be finite, got ${t}`);
    });
  });
  if (clusters > EXACT_CLUSTER_MAX) {
    throw new RangeError(`westfallYoung: enumerates 2^C sign vectors for C ≤ ${EXACT_CLUSTER_MAX} clusters, got ${clusters}`);
  }

  const norms = totals.map((row) => Math.sqrt(row.reduce((a, t) => a + t * t, 0)));
  const statistic = (sum: number, j: number) => (norms[j] === 0 ? 0 : Math.abs(sum) / norms[j]);
  const sums = totals.map((row) => row.reduce((a, t) => a + t, 0));
  const observed = sums.map(statistic);
  // Stable, so tied statistics keep input order (their adjusted values come out equal anyway).
  const order = observed.map((_, j) => j).sort((a, b) => observed[b] - observed[a]);
  const tolerance = order.map((j) => (norms[j] === 0 ? 0 : (TIE_TOLERANCE * totals[j].reduce((a, t) => a + Math.abs(t), 0)) / norms[j]));

  const total = 2 ** clusters;
  const counts = new Float64Array(m);
  const signs = new Int8Array(clusters).fill(1);
  // Gray-code order: each g differs from the last in one cluster, so each costs one update per comparison.
  for (let k = 0; k < total; k++) {
    if (k > 0) {
      const bit = 31 - Math.clz32(k & -k);
      signs[bit] = -signs[bit];
      for (let j = 0; j < m; j++) sums[j] += 2 * signs[bit] * totals[j][bit];
    }
    let u = 0;
    for (let r = m - 1; r >= 0; r--) {
      const j = order[r];
      u = Math.max(u, statistic(sums[j], j));
      if (u >= observed[j] - tolerance[r]) counts[r]++;
    }
  }

  const adjusted = new Array<number>(m);
  let runningMax = 0;
  order.forEach((j, r) => {
    runningMax = Math.max(runningMax, counts[r] / total);
    adjusted[j] = runningMax;
  });
  return adjusted;
}

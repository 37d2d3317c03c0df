/**
 * The one definition of a dot product used everywhere in src/memory: float64 products summed in
 * eight interleaved lanes (element i goes to lane i mod 8), lanes combined pairwise. Summing in
 * lanes is what lets the SIMD kernel (simd-dots.ts) keep four independent accumulators; fixing
 * the order here means the kernel, the plain-JS path and `relevanceScore` agree bit for bit.
 */
export function dotLanes(
  a: ArrayLike<number>,
  aOffset: number,
  b: ArrayLike<number>,
  bOffset: number,
  n: number,
): number {
  let l0 = 0;
  let l1 = 0;
  let l2 = 0;
  let l3 = 0;
  let l4 = 0;
  let l5 = 0;
  let l6 = 0;
  let l7 = 0;
  const end8 = n - (n % 8);
  let i = 0;
  for (; i < end8; i += 8) {
    const x = aOffset + i;
    const y = bOffset + i;
    l0 += a[x] * b[y];
    l1 += a[x + 1] * b[y + 1];
    l2 += a[x + 2] * b[y + 2];
    l3 += a[x + 3] * b[y + 3];
    l4 += a[x + 4] * b[y + 4];
    l5 += a[x + 5] * b[y + 5];
    l6 += a[x + 6] * b[y + 6];
    l7 += a[x + 7] * b[y + 7];
  }
  const rest = n - end8;
  const x = aOffset + end8;
  const y = bOffset + end8;
  if (rest > 0) l0 += a[x] * b[y];
  if (rest > 1) l1 += a[x + 1] * b[y + 1];
  if (rest > 2) l2 += a[x + 2] * b[y + 2];
  if (rest > 3) l3 += a[x + 3] * b[y + 3];
  if (rest > 4) l4 += a[x + 4] * b[y + 4];
  if (rest > 5) l5 += a[x + 5] * b[y + 5];
  if (rest > 6) l6 += a[x + 6] * b[y + 6];
  return ((l0 + l2) + (l4 + l6)) + ((l1 + l3) + (l5 + l7));
}

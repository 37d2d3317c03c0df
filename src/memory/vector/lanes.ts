/**
 * The one definition of a dot product used everywhere in src/memory: float32 arithmetic (both
 * inputs rounded to float32, every product and every sum rounded to float32), summed in eight
 * interleaved lanes (element i goes to lane i mod 8), lanes combined pairwise. Float32 is what
 * lets the SIMD kernel (simd-dots.ts) multiply four lanes per instruction and keep pace with
 * memory; fixing the rounding and the order here means the kernel, the plain-JS path and
 * `relevanceScore` agree bit for bit. (A float64 product of two float32 values is exact, and a
 * float64 sum of two rounds correctly to float32, so `Math.fround` reproduces f32 hardware.)
 */
export function dotLanes(
  a: ArrayLike<number>,
  aOffset: number,
  b: ArrayLike<number>,
  bOffset: number,
  n: number,
): number {
  const f = Math.fround;
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
    l0 = f(l0 + f(f(a[x]) * f(b[y])));
    l1 = f(l1 + f(f(a[x + 1]) * f(b[y + 1])));
    l2 = f(l2 + f(f(a[x + 2]) * f(b[y + 2])));
    l3 = f(l3 + f(f(a[x + 3]) * f(b[y + 3])));
    l4 = f(l4 + f(f(a[x + 4]) * f(b[y + 4])));
    l5 = f(l5 + f(f(a[x + 5]) * f(b[y + 5])));
    l6 = f(l6 + f(f(a[x + 6]) * f(b[y + 6])));
    l7 = f(l7 + f(f(a[x + 7]) * f(b[y + 7])));
  }
  const rest = n - end8;
  const x = aOffset + end8;
  const y = bOffset + end8;
  if (rest > 0) l0 = f(l0 + f(f(a[x]) * f(b[y])));
  if (rest > 1) l1 = f(l1 + f(f(a[x + 1]) * f(b[y + 1])));
  if (rest > 2) l2 = f(l2 + f(f(a[x + 2]) * f(b[y + 2])));
  if (rest > 3) l3 = f(l3 + f(f(a[x + 3]) * f(b[y + 3])));
  if (rest > 4) l4 = f(l4 + f(f(a[x + 4]) * f(b[y + 4])));
  if (rest > 5) l5 = f(l5 + f(f(a[x + 5]) * f(b[y + 5])));
  if (rest > 6) l6 = f(l6 + f(f(a[x + 6]) * f(b[y + 6])));
  const even = f(f(l0 + l2) + f(l4 + l6));
  const odd = f(f(l1 + l3) + f(l5 + l7));
  return f(even + odd);
}

/**
 * The cosine of a query and a vector from their product and norms, 0 for a vector of norm 0 (one
 * without an embedding). Only here, so that every path that ranks by embedding divides alike.
 */
export function cosineOf(dot: number, queryNorm: number, norm: number): number {
  return norm === 0 ? 0 : dot / (queryNorm * norm);
}

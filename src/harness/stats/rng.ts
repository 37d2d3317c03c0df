import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plusFromState } from "pure-rand/generator/xoroshiro128plus";
import type { RandomGenerator } from "pure-rand/types/RandomGenerator";

/**
 * A seeded random stream. Every random choice in the harness comes from one of these, so a run is
 * reproducible from its seeds alone. It is stateful (each draw advances it); use `fork` to hand
 * an independent stream to each trial, so that a trial's draws do not depend on how many draws
 * ran before it or in which order trials were scheduled.
 */
export interface Rng {
  /** Uniform in [0, 1), 53 bits. */
  nextFloat(): number;
  /** Uniform integer in [0, maxExclusive). */
  nextInt(maxExclusive: number): number;
  /** A new array with the items in uniformly random order (Fisher–Yates); the input is untouched. */
  shuffle<T>(items: readonly T[]): T[];
  /**
   * An independent stream derived from this stream's seed and `label` alone: forking the same
   * label twice gives the same stream, whatever has been drawn from this one in between.
   */
  fork(label: string): Rng;
}

/** A seed as the statistics functions take it: a number, or a stream already forked for the job. */
export type Seed = number | Rng;

export function createRng(seed: number): Rng {
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`createRng: seed must be a safe integer, got ${seed}`);
  }
  return rngFromKey(hash128(`seed\u0000${seed}`));
}

export function toRng(seed: Seed): Rng {
  return typeof seed === "number" ? createRng(seed) : seed;
}

/**
 * A stream keyed by `values` as well as by `rng`'s seed: the same numbers draw the same stream,
 * whichever comparison or ablation they belong to. Identical data thus get identical intervals
 * and p-values, and a figure cannot change because another, unrelated one was added.
 */
export function forkByData(rng: Rng, values: ArrayLike<number>): Rng {
  const words = new Uint32Array(Float64Array.from(values).buffer);
  let text = "data";
  for (let i = 0; i < words.length; i++) text += String.fromCharCode(words[i] & 0xffff, words[i] >>> 16);
  return rng.fork(text);
}

/** A standard normal draw (Box–Muller), for synthetic data and noise. */
export function sampleNormal(rng: Rng, mean = 0, sd = 1): number {
  // 1 - u keeps the argument of log in (0, 1], so the result is always finite.
  const u1 = 1 - rng.nextFloat();
  const u2 = rng.nextFloat();
  return mean + sd * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

type Key = readonly [number, number, number, number];

function rngFromKey(key: Key): Rng {
  // Hashing the seed into the full 128-bit state, rather than using pure-rand's
  // xoroshiro128plus(seed), matters: that constructor's first outputs are a plain function of a
  // small seed, so neighbouring seeds (1, 2, 3 …) would start with correlated draws.
  // An all-zero state would draw zeros forever.
  const state = key.every((word) => word === 0) ? [0, 0, 0, 1] : key.map((word) => word | 0);
  const generator: RandomGenerator = xoroshiro128plusFromState(state);
  const keyText = key.map((word) => word.toString(16).padStart(8, "0")).join("");

  const nextInt = (maxExclusive: number): number => {
    if (!Number.isSafeInteger(maxExclusive) || maxExclusive < 1) {
      throw new RangeError(`nextInt: maxExclusive must be a positive integer, got ${maxExclusive}`);
    }
    return uniformInt(generator, 0, maxExclusive - 1);
  };

  return {
    nextFloat: () => uniformFloat64(generator),
    nextInt,
    shuffle<T>(items: readonly T[]): T[] {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = nextInt(i + 1);
        const tmp = out[i];
        out[i] = out[j];
        out[j] = tmp;
      }
      return out;
    },
    fork: (label: string) => rngFromKey(hash128(`${keyText}\u0000${label}`)),
  };
}

/**
 * cyrb128: a small, well-mixed, non-cryptographic 128-bit string hash. The derivation of streams
 * from seeds and labels is part of what recorded results depend on: changing it changes every
 * seeded result.
 */
function hash128(text: string): Key {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

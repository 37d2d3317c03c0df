/**
 * Deterministic synthetic memories and queries for the benchmark. Words follow a Zipf-like law
 * over a made-up vocabulary (with a few real stopwords at the top), so term postings have the
 * long-tailed lengths of real text: a handful of words in most memories, most words in few.
 * Everything derives from one seed through createRng; the same seed gives the same data.
 */
import { createRng, type Rng } from "../harness/stats/rng.js";
import type { Kind, NewMemory } from "../memory/index.js";
import { newArray } from "../shared/grown-array.js";

export const BENCH_SCOPE = "bench";
export const BENCH_MODEL = "bench-embedder";
/** The benchmark's virtual "now" before any query; queries advance from here. */
export const BENCH_T0 = Date.UTC(2024, 5, 1, 12, 0, 0);
const DAY = 86_400_000;

const TOP_WORDS = ["the", "i", "to", "a", "and", "my", "of", "in", "for", "with"];
const SYLLABLES = ["ka", "lo", "mi", "ra", "ten", "vo", "su", "pel", "dra", "no", "bi", "ter", "qua", "zen", "fo", "lun"];

/** Kinds in rough proportion to a personal assistant's store. */
const KIND_MIX: [Kind, number][] = [
  ["working", 0.05],
  ["semantic", 0.4],
  ["episodic", 0.45],
  ["procedural", 0.1],
];

export interface SyntheticOptions {
  seed: number;
  /** Embedding dimension; 0 writes no embeddings. */
  dim: number;
  vocabularySize?: number;
  /** Zipf exponent of word frequency. */
  zipf?: number;
}

export interface BenchQuery {
  text: string;
  vector: Float32Array | null;
  now: number;
}

/** A vocabulary of distinct words: the stopwords first, then made-up words by rank. */
export function vocabulary(size: number, rng: Rng): string[] {
  const words = TOP_WORDS.slice(0, size);
  const seen = new Set(words);
  while (words.length < size) {
    const syllables = 2 + rng.nextInt(3);
    let word = "";
    for (let i = 0; i < syllables; i++) word += SYLLABLES[rng.nextInt(SYLLABLES.length)];
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

/** Draws ranks 0…n-1 with probability ∝ 1 / (rank + 1)^s. */
export class ZipfSampler {
  private readonly cdf: Float64Array;

  constructor(n: number, s: number) {
    this.cdf = new Float64Array(n);
    let total = 0;
    for (let r = 0; r < n; r++) this.cdf[r] = total += 1 / (r + 1) ** s;
    for (let r = 0; r < n; r++) this.cdf[r] /= total;
  }

  sample(rng: Rng): number {
    const u = rng.nextFloat();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * Vector components come from a small generator seeded once per vector from the main stream:
 * 384 draws through the main stream per memory would dominate building a million memories.
 */
function fillVector(out: Float32Array, seed: number): void {
  let a = seed >>> 0;
  for (let i = 0; i < out.length; i++) {
    // mulberry32
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) / 2 ** 31 - 1;
  }
}

export class SyntheticData {
  readonly words: string[];
  private readonly zipf: ZipfSampler;
  private readonly memoryRng: Rng;
  private readonly queryRng: Rng;
  private produced = 0;
  private readonly corrected = new Set<number>();
  /** The vectors of the last batch (see nextMemories). */
  private vectors = new Float32Array(0);

  constructor(private readonly options: SyntheticOptions) {
    const root = createRng(options.seed);
    const size = options.vocabularySize ?? 20_000;
    this.words = vocabulary(size, root.fork("vocabulary"));
    this.zipf = new ZipfSampler(size, options.zipf ?? 1.05);
    this.memoryRng = root.fork("memories");
    this.queryRng = root.fork("queries");
  }

  /**
   * The next `count` memories of the stream (ids m1, m2, … continue across calls). Their vectors
   * are views of one buffer that the next call overwrites: copy them to keep them.
   */
  nextMemories(count: number): NewMemory[] {
    const rng = this.memoryRng;
    const out: NewMemory[] = [];
    // One buffer for every batch: arrays made per vector or per batch are freed only when a
    // collection finds them, and until then their memory (malloc's heap keeps its high-water
    // mark; a mapping lingers) would count in the bench as the store's own, by 30–75 MB at 1M × 384.
    if (this.vectors.length < count * this.options.dim) this.vectors = newArray(Float32Array, count * this.options.dim);
    const vectors = this.vectors;
    for (let n = 0; n < count; n++) {
      const i = ++this.produced;
      const createdAt = BENCH_T0 - rng.nextFloat() * 365 * DAY;
      const kind = pickKind(rng.nextFloat());
      const memory: NewMemory = {
        id: `m${i}`,
        scope: BENCH_SCOPE,
        kind,
        text: this.sentence(rng, 5 + rng.nextInt(8)),
        createdAt,
        occurredAt: kind === "episodic" ? createdAt - rng.nextFloat() * 2 * DAY : null,
        lastAccessedAt: createdAt + rng.nextFloat() * (BENCH_T0 - createdAt),
        importance: 1 + rng.nextInt(10),
      };
      // About 1% expire (half of them already expired), about 0.5% correct an earlier memory.
      if (rng.nextFloat() < 0.01) memory.expiresAt = BENCH_T0 + (rng.nextFloat() - 0.5) * 60 * DAY;
      if (i > 1 && rng.nextFloat() < 0.005) {
        const target = i - 1 - rng.nextInt(Math.min(i - 1, 1000));
        if (!this.corrected.has(target)) {
          this.corrected.add(target);
          memory.supersedes = `m${target}`;
        }
      }
      if (this.options.dim > 0) {
        const vector = vectors.subarray(n * this.options.dim, (n + 1) * this.options.dim);
        fillVector(vector, rng.nextInt(2 ** 32));
        memory.embedding = { model: BENCH_MODEL, vector };
      }
      out.push(memory);
    }
    return out;
  }

  /** `count` queries of two to four words, a minute apart after BENCH_T0. */
  queries(count: number): BenchQuery[] {
    const rng = this.queryRng;
    return Array.from({ length: count }, (_, q) => {
      let vector: Float32Array | null = null;
      const text = this.sentence(rng, 2 + rng.nextInt(3));
      if (this.options.dim > 0) {
        vector = new Float32Array(this.options.dim);
        fillVector(vector, rng.nextInt(2 ** 32));
      }
      return { text, vector, now: BENCH_T0 + (q + 1) * 60_000 };
    });
  }

  private sentence(rng: Rng, length: number): string {
    const words: string[] = [];
    for (let w = 0; w < length; w++) words.push(this.words[this.zipf.sample(rng)]);
    return words.join(" ");
  }
}

function pickKind(u: number): Kind {
  let acc = 0;
  for (const [kind, share] of KIND_MIX) {
    acc += share;
    if (u < acc) return kind;
  }
  return "procedural";
}

/** A cheap deterministic token count (about four characters a token), for bulk ingest. */
export const cheapTokenCounter = { count: (text: string) => Math.ceil(text.length / 4) };

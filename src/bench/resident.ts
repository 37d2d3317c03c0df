/**
 * Resident memory per stored memory: the growth of the process's RSS across one store size's
 * ingest and queries, per million memories, and the part of it that is not the vectors
 * themselves. Each reading follows a full garbage collection, so that it counts what the store
 * keeps rather than garbage that happens to await collection.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Bytes in the megabytes these figures are given in (10⁶, as the vectors' 4 bytes a float are counted). */
const MB = 1e6;

export interface ResidentGrowth {
  /** RSS before the size's ingest and after its queries, in MB. */
  beforeMb: number;
  afterMb: number;
  /** RSS growth per million memories, in MB. */
  perMillionMb: number;
  /** The float32 vectors' own bytes per million memories (dim × 4 MB). */
  vectorsPerMillionMb: number;
  /** perMillionMb less vectorsPerMillionMb: columns, postings, strings, caches, every other cost. */
  nonVectorPerMillionMb: number;
}

let collect: (() => void) | undefined;

/** The process's RSS in bytes after a full garbage collection. */
export function settledRss(): number {
  if (collect === undefined) {
    // The bench runs without --expose-gc; this makes gc() for a fresh context, leaving the flag set.
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as () => void;
  }
  collect();
  // V8 frees dropped array buffers on a background thread after a collection; the next full
  // collection waits for that first, so the reading after it no longer counts them.
  collect();
  return process.memoryUsage().rss;
}

/** The growth from `before` to `after` (bytes of RSS) over `size` memories of `dim` floats. */
export function residentGrowth(size: number, dim: number, before: number, after: number): ResidentGrowth {
  const perMillionMb = ((after - before) / MB) * (1e6 / size);
  const vectorsPerMillionMb = (dim * 4 * 1e6) / MB;
  return { beforeMb: before / MB, afterMb: after / MB, perMillionMb, vectorsPerMillionMb, nonVectorPerMillionMb: perMillionMb - vectorsPerMillionMb };
}

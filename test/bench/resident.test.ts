import { describe, expect, it } from "vitest";
import { residentGrowth, settledRss } from "../../src/bench/resident.js";

describe("resident memory per million memories", () => {
  it("gives the growth per million, the vectors' own bytes and the rest, in MB of 10⁶ bytes", () => {
    // Half a million 384-dim memories that grew RSS by 900 MB: 1,800 MB per million, 1,536 of them vectors.
    expect(residentGrowth(500_000, 384, 100e6, 1_000e6)).toEqual({
      beforeMb: 100,
      afterMb: 1_000,
      perMillionMb: 1_800,
      vectorsPerMillionMb: 1_536,
      nonVectorPerMillionMb: 264,
    });
    expect(residentGrowth(2_000_000, 0, 0, 300e6).nonVectorPerMillionMb).toBe(150);
  });

  it("reads RSS after collecting garbage, so that garbage dropped since is not counted", () => {
    const before = settledRss();
    // One block of 40 MiB: past glibc's largest mmap threshold (32 MiB), so freeing it returns it to
    // the system. Blocks of 1 MiB came from the heap once earlier tests in the same worker had
    // raised that threshold, and a freed heap stays resident, whatever the garbage collector does.
    let garbage: Float64Array | null = new Float64Array(5 << 20).fill(1);
    expect(garbage.byteLength).toBe(40 * 2 ** 20);
    garbage = null;
    expect(settledRss() - before).toBeLessThan(20 * 2 ** 20);
  });
});

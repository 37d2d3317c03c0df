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
    let garbage: Float64Array[] | null = Array.from({ length: 40 }, () => new Float64Array(1 << 17).fill(1)); // 40 MiB
    expect(garbage.length).toBe(40);
    garbage = null;
    expect(settledRss() - before).toBeLessThan(20 * 2 ** 20);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { type EncoderBench, renderEncoderBench, runEncoderBench } from "../../src/bench/encoder.js";

/** Few texts: the plain JavaScript backend, the baseline, embeds one or two a second. */
const TEXTS = 6;

let bench: EncoderBench;
const lines: string[] = [];
beforeAll(async () => {
  bench = await runEncoderBench(TEXTS, (line) => lines.push(line));
}, 300_000);

describe("the in-process encoder bench", () => {
  it("times every backend tried in one run, plain JavaScript first as the baseline", () => {
    expect(bench.texts.count).toBe(TEXTS);
    expect(bench.rows.map((r) => [r.threads, r.call])).toEqual([
      [1, "one text"],
      [1, "one text"],
      [1, "all texts"],
      [2, "all texts"],
    ]);
    expect(bench.rows[0]!.backend).toMatch(/plain JavaScript/);
    expect(bench.rows[0]!.vsPlain).toBe(1);
    for (const row of bench.rows) expect(row.perSecond).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^encoder: 6 texts from /);
  });

  it("keeps use-lite as runs load it, and its vectors are the plain JavaScript ones (cosine ≥ 0.999)", () => {
    expect(bench.rows.filter((r) => r.kept).map((r) => r.backend)).toEqual([expect.stringMatching(/\(use-lite\)$/)]);
    for (const row of bench.rows) expect(row.minCosine).toBeGreaterThanOrEqual(0.999);
  });

  it("renders a table with texts per second, the ratio to plain JavaScript and the least cosine", () => {
    const table = renderEncoderBench(bench);
    expect(table).toMatch(/^## In-process encoder\n/);
    expect(table).toContain("| backend ");
    expect(table).toMatch(/\| TensorFlow\.js plain JavaScript \(cpu\) +\| +1 \| one text +\| +[\d.,]+ \| +1 \| 1\.000000 +\| +\|/);
  });
});

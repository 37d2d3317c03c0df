import { describe, expect, it } from "vitest";
import { summarise } from "../../src/harness/summary.js";
import { signedGain, whereAblationsLose } from "../../src/harness/summary/losses.js";
import { addAblation, syntheticResults } from "../fixtures/synthetic-results.js";

const FAST = { seed: 5, bootstrapResamples: 300, testResamples: 2000 };

describe("whereAblationsLose", () => {
  const results = addAblation(syntheticResults(), "copy", "full");
  const summary = summarise(results, FAST);
  const losses = whereAblationsLose(results, summary, FAST);

  it("covers every ablation but the baseline, in order", () => {
    expect(losses.map((l) => l.ablation)).toEqual(["relevance-only", "no-decay", "no-touch", "copy"]);
  });

  it("picks as key metric the quality metric with the largest loss over all asks", () => {
    for (const l of losses) {
      expect(l.keyMetric).not.toBe("tokens");
      const others = summary.rows.filter(
        (r) => r.ablation === l.ablation && r.group === "all" && r.metric !== "tokens" && r.vsBaseline!.diff.n > 0,
      );
      for (const r of others) expect(signedGain(l.overall)).toBeLessThanOrEqual(signedGain(r));
    }
  });

  it("finds no-touch losing significantly where touching matters, and nowhere else", () => {
    const noTouch = losses.find((l) => l.ablation === "no-touch")!;
    expect(noTouch.losses.map((x) => x.scenario)).toEqual(["touch-keeps-fact-alive"]);
    expect(noTouch.losses[0].significant).toBe(true);
    expect(signedGain(noTouch.losses[0].row)).toBeLessThan(0);
  });

  it("lists nothing for an ablation identical to the baseline", () => {
    expect(losses.find((l) => l.ablation === "copy")!.losses).toEqual([]);
  });

  it("always lists the largest loss, significant or not", () => {
    const noDecay = losses.find((l) => l.ablation === "no-decay")!;
    expect(noDecay.losses.length).toBeGreaterThan(0);
    const gains = noDecay.losses.map((x) => signedGain(x.row));
    expect([...gains].sort((a, b) => a - b)).toEqual(gains);
  });
});

import { describe, expect, it } from "vitest";
import type { ExperimentResults } from "../../../src/harness/results/types.js";
import { findRow, summarise } from "../../../src/harness/summary/summarise.js";
import { costChart } from "../../../src/report/charts/cost-chart.js";
import { renderChart } from "../../../src/report/charts/render.js";
import { costResults } from "../../fixtures/cost-results.js";

const summaryOf = (results: ExperimentResults) => summarise(results, { seed: 1, bootstrapResamples: 200, testResamples: 200 });

interface Encoding {
  field: string;
  scale?: { type?: string; domain?: number[] };
  title?: string;
}
interface Panel {
  layer: { mark: { type: string }; encoding: { x: Encoding; y: Encoding; shape?: { scale: { domain: string[]; range: string[] } } } }[];
}
interface Spec {
  data: { values: { ablation: string; label: string; mean: number; lo: number; hi: number; tokens: number; latency: number | null }[] };
  hconcat: Panel[];
  title: { text: string; subtitle: string[] };
}

const chart = (results: ExperimentResults) => costChart(results, summaryOf(results)) as unknown as Spec;
const xOf = (panel: Panel) => panel.layer[1]!.encoding.x;

describe("costChart", () => {
  const results = costResults();
  const summary = summaryOf(results);
  const spec = costChart(results, summary) as unknown as Spec;

  it("places each ablation or system by the first headline metric's mean and interval, against the tokens it returned", () => {
    expect(spec.data.values.map(({ ablation, label, tokens, latency }) => ({ ablation, label, tokens, latency }))).toEqual([
      { ablation: "full", label: "full (baseline)", tokens: 52 / 3, latency: 0.85 },
      { ablation: "recent-window", label: "recent-window", tokens: 70 / 3, latency: 0.02 },
      { ablation: "bm25-py", label: "bm25-py", tokens: 4, latency: 12.34 },
    ]);
    for (const value of spec.data.values) {
      const interval = findRow(summary, value.ablation, "coverage").value;
      expect([value.mean, value.lo, value.hi]).toEqual([interval.mean, interval.lo, interval.hi]);
    }
    expect(spec.title.text).toBe("cost-demo: quality against cost");
  });

  it("draws two panels when the run timed its calls: tokens, and the median latency of a retrieval", () => {
    expect(spec.hconcat).toHaveLength(2);
    expect(spec.hconcat.map((p) => [xOf(p).field, xOf(p).title])).toEqual([
      ["tokens", "tokens returned per ask (log)"],
      ["latency", "retrieve p50, ms (log)"],
    ]);
    expect(spec.title.subtitle[0]).toContain("median wall time of one retrieval");
  });

  it("draws the tokens panel alone when the run did not time its calls", () => {
    const untimed = chart(costResults({ timing: false }));
    expect(untimed.hconcat).toHaveLength(1);
    expect(xOf(untimed.hconcat[0]!).field).toBe("tokens");
    expect(untimed.data.values.every((v) => v.latency === null)).toBe(true);
    expect(untimed.title.subtitle[0]).not.toContain("wall time");
  });

  it("draws the tokens panel alone when any row lacks a timing, rather than leave a point out", () => {
    const partly = costResults();
    delete partly.timing!["bm25-py"];
    expect(chart(partly).hconcat).toHaveLength(1);
  });

  it("puts both cost axes on log scales spanning whole decades around the values", () => {
    const [tokens, latency] = spec.hconcat.map(xOf);
    expect(tokens!.scale).toMatchObject({ type: "log", domain: [1, 100] });
    expect(latency!.scale).toMatchObject({ type: "log", domain: [0.01, 100] });
    for (const panel of spec.hconcat) for (const layer of panel.layer) expect(layer.encoding.x.scale!.type).toBe("log");
  });

  it("lifts a system that returned nothing to one token, so a log axis can place it", () => {
    const empty = costResults();
    for (const trial of empty.trials) if (trial.ablation === "bm25-py") for (const ask of trial.asks) Object.assign(ask, { tokens: 0, returnedTokens: 0 });
    const lifted = chart(empty);
    expect(lifted.data.values.find((v) => v.ablation === "bm25-py")!.tokens).toBe(1);
    expect(xOf(lifted.hconcat[0]!).scale!.domain).toEqual([1, 100]);
  });

  it("gives the eleventh ablation on a new shape, since colours repeat after ten", () => {
    const many = structuredClone(results);
    for (let i = 0; i < 9; i++) {
      many.experiment.ablations.push({ ...structuredClone(many.experiment.ablations[1]!), name: `window-${i}` });
      many.trials.push(...results.trials.filter((t) => t.ablation === "recent-window").map((t) => ({ ...structuredClone(t), ablation: `window-${i}` })));
    }
    const shapes = chart(many).hconcat[0]!.layer[1]!.encoding.shape!.scale.range;
    expect(shapes.slice(0, 10)).toEqual(Array(10).fill("circle"));
    expect(shapes.slice(10)).toEqual(["square", "square"]);
  });

  it("is null without trials to place", () => {
    expect(costChart({ ...results, trials: [] }, summary)).toBeNull();
  });

  it("renders without a Vega warning", async () => {
    expect((await renderChart(costChart(results, summary)!)).warnings).toEqual([]);
  });
});

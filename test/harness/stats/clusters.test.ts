import { describe, expect, it } from "vitest";
import { groupLabels, itemWeightedMean, reduceGrouped, reduceToClusters } from "../../../src/harness/stats/clusters.js";

describe("reduceToClusters", () => {
  it("averages each item's values first, then sums item means per cluster", () => {
    // Items a (2 seeds) and b (3 seeds) in conversation x; item c (1 seed) in conversation y.
    const values = [1, 0, 1, 1, 0, 0.5];
    const data = reduceToClusters("test", values, {
      items: ["a", "a", "b", "b", "b", "c"],
      clusters: ["x", "x", "x", "x", "x", "y"],
    });
    expect(Array.from(data.itemMeans)).toEqual([0.5, 2 / 3, 0.5]);
    expect(Array.from(data.itemCluster)).toEqual([0, 0, 1]);
    expect(Array.from(data.totals)).toEqual([0.5 + 2 / 3, 0.5]);
    expect(Array.from(data.sizes)).toEqual([2, 1]);
    expect(data).toMatchObject({ nValues: 6, nItems: 3, nClusters: 2, clusteredBy: "cluster", clusterLabels: ["x", "y"] });
    // Each item counts once, whatever its number of seeds.
    expect(itemWeightedMean(data)).toBeCloseTo((0.5 + 2 / 3 + 0.5) / 3, 12);
  });

  it("makes every value an item without item labels, and every item a cluster without cluster labels", () => {
    const onlyClusters = reduceToClusters("test", [1, 2, 3], { clusters: ["x", "x", "y"] });
    expect(onlyClusters).toMatchObject({ nItems: 3, nClusters: 2 });
    const onlyItems = reduceToClusters("test", [1, 3, 5], { items: [7, 7, 8] });
    expect(onlyItems).toMatchObject({ nItems: 2, nClusters: 2, clusteredBy: "item" });
    expect(Array.from(onlyItems.totals)).toEqual([2, 5]);
  });

  it("numbers items and clusters by first appearance, so the order of labels does not matter", () => {
    const a = reduceToClusters("test", [1, 2], { items: ["z", "a"], clusters: ["z", "a"] });
    expect(Array.from(a.totals)).toEqual([1, 2]);
    expect(a.clusterLabels).toEqual(["z", "a"]);
  });

  it("falls back to items as clusters when every item is in one cluster, and says so", () => {
    const data = reduceToClusters("test", [1, 2, 3, 4], { items: [1, 1, 2, 2], clusters: ["x", "x", "x", "x"] });
    expect(data).toMatchObject({ nItems: 2, nClusters: 2, clusteredBy: "item", clusterLabels: [1, 2] });
    expect(Array.from(data.itemCluster)).toEqual([0, 1]);
    expect(Array.from(data.totals)).toEqual([1.5, 3.5]);
    expect(Array.from(data.sizes)).toEqual([1, 1]);
  });

  it("keeps a single item as its one cluster", () => {
    const data = reduceToClusters("test", [1, 2], { items: [1, 1], clusters: ["x", "x"] });
    expect(data).toMatchObject({ nItems: 1, nClusters: 1, clusteredBy: "cluster" });
    expect(Array.from(data.totals)).toEqual([1.5]);
  });

  it("refuses an item labelled with two clusters", () => {
    expect(() => reduceToClusters("test", [1, 2], { items: ["a", "a"], clusters: ["x", "y"] })).toThrow(
      /item "a" is labelled with two clusters, "x" and "y"/,
    );
  });

  it("refuses label arrays that do not have one label per value", () => {
    expect(() => reduceToClusters("fn", [1, 2, 3], { items: [1, 2] })).toThrow(/fn: items must have one label per value \(3\), got 2/);
    expect(() => reduceToClusters("fn", [1], { clusters: [] })).toThrow(/clusters must have one label per value/);
  });
});

describe("groupLabels and reduceGrouped", () => {
  const structure = { items: ["a", "a", "b", "b", "b", "c"], clusters: ["x", "x", "x", "x", "x", "y"] };

  it("reduce many value arrays over one grouping exactly as reduceToClusters reduces each", () => {
    const grouping = groupLabels("test", 6, structure);
    for (const values of [[1, 0, 1, 1, 0, 0.5], [0.1, 0.2, 0.7, -3, 1e-9, 2], [0, 0, 0, 0, 0, 0]]) {
      expect(reduceGrouped(values, grouping)).toEqual(reduceToClusters("test", values, structure));
    }
    // The one-cluster fallback is part of the grouping too.
    const single = { items: [1, 2, 2], clusters: ["x", "x", "x"] };
    expect(reduceGrouped([4, 5, 6], groupLabels("test", 3, single))).toEqual(reduceToClusters("test", [4, 5, 6], single));
  });

  it("check the labels when grouping, and the values' count when reducing", () => {
    expect(() => groupLabels("fn", 3, { items: [1, 2] })).toThrow(/fn: items must have one label per value \(3\), got 2/);
    expect(() => reduceGrouped([1, 2], groupLabels("test", 6, structure))).toThrow(/the grouping is of 6 values, got 2/);
  });
});

describe("itemWeightedMean", () => {
  it("is 0 without items, not NaN", () => {
    expect(itemWeightedMean(reduceToClusters("test", [], { items: [] }))).toBe(0);
  });
});

/**
 * Dependencies point one way: cli → report (and bench) → datasets → harness → agent → memory and
 * model → shared. memory/ and model/ share a layer and do not know each other: agent/ joins them.
 * Nothing outside memory/ reaches past its index.
 */
import { describe, expect, it } from "vitest";
import { importGraph } from "./source-graph.js";

// Top-level folders of src/, from the top down; a folder may import only folders after its own layer.
const LAYERS = [["cli"], ["report", "bench"], ["datasets"], ["harness"], ["agent"], ["memory", "model"], ["shared"]];

const layerOf = (file: string): number => {
  const folder = file.split("/")[1];
  const layer = LAYERS.findIndex((names) => names.includes(folder));
  if (layer < 0) throw new Error(`${file}: src/${folder} is in no layer; add it to LAYERS`);
  return layer;
};

describe("src/ layers", () => {
  const graph = importGraph();

  it("cover every top-level folder", () => {
    expect(graph.size).toBeGreaterThan(100);
    for (const file of graph.keys()) expect(() => layerOf(file)).not.toThrow();
  });

  it("are imported only downwards", () => {
    const upwards = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => target.split("/")[1] !== file.split("/")[1] && layerOf(target) <= layerOf(file))
        .map((target) => `${file} → ${target}`),
    );
    expect(upwards).toEqual([]);
  });

  it("enter memory/ only through its index", () => {
    const inside = [...graph].flatMap(([file, targets]) =>
      file.startsWith("src/memory/") ? [] : targets.filter((t) => t.startsWith("src/memory/") && t !== "src/memory/index.ts").map((t) => `${file} → ${t}`),
    );
    expect(inside).toEqual([]);
  });
});

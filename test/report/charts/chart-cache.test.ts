import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TopLevelSpec } from "vega-lite";
import { describe, expect, it } from "vitest";
import { CHART_CACHE_DIR, ChartCache } from "../../../src/report/charts/chart-cache.js";
import { renderChart, renderCharts } from "../../../src/report/charts/render.js";
import { useTempDir } from "../../harness/temp-files.js";

const temp = useTempDir("recollect-chart-cache-");
let dirs = 0;
const freshCache = (version = "code-1") => new ChartCache(temp.path(`cache-${++dirs}`), version);

const SPEC: TopLevelSpec = {
  data: { values: [{ a: "x", b: 1 }, { a: "y", b: 2 }] },
  mark: "bar",
  encoding: { x: { field: "a", type: "nominal" }, y: { field: "b", type: "quantitative" } },
};
const CHART = { svg: "<svg>planted</svg>", png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]), warnings: ["a warning"] };

describe("ChartCache", () => {
  it("lives in the output folder's ignored .recollect/", () => {
    expect(CHART_CACHE_DIR).toBe(".recollect/chart-cache");
  });

  it("round-trips a chart, PNG bytes and warnings included", () => {
    const cache = freshCache();
    const key = cache.key(SPEC);
    expect(cache.get(key)).toBeUndefined();
    cache.put(key, CHART);
    expect(cache.get(key)).toEqual(CHART);
  });

  it("keys a chart by its spec and by the version of the code that renders it", () => {
    const cache = freshCache("code-1");
    expect(cache.key(SPEC)).toBe(cache.key(structuredClone(SPEC)));
    expect(cache.key({ ...SPEC, mark: "point" })).not.toBe(cache.key(SPEC));
    expect(new ChartCache(cache.dir, "code-2").key(SPEC), "another version of the code").not.toBe(cache.key(SPEC));
  });

  it("does not trust an entry that was changed, cut short, or is not an entry", () => {
    const cache = freshCache();
    const key = cache.key(SPEC);
    const file = join(cache.dir, `${key}.json`);
    for (const [what, text] of [
      ["a changed SVG", JSON.stringify({ ...entryOf(cache, key), svg: "<svg>changed</svg>" })],
      ["cut short", JSON.stringify(entryOf(cache, key)).slice(0, 20)],
      ["not an entry", JSON.stringify({ hello: "world" })],
    ] as const) {
      writeFileSync(file, text);
      expect(cache.get(key), what).toBeUndefined();
    }
  });
});

describe("renderChart through a chart cache", () => {
  it("renders a chart it does not hold, as without a cache, and stores it", async () => {
    const cache = freshCache();
    const plain = await renderChart(SPEC);
    expect(await renderChart(SPEC, cache)).toEqual(plain);
    expect(readdirSync(cache.dir)).toEqual([`${cache.key(SPEC)}.json`]);
    expect(cache.get(cache.key(SPEC))).toEqual(plain);
  });

  it("reads a chart it holds instead of rendering it", async () => {
    const cache = freshCache();
    cache.put(cache.key(SPEC), CHART);
    expect(await renderChart(SPEC, cache)).toEqual(CHART);
  });

  it("renders again, and mends the entry, when the entry cannot be trusted", async () => {
    const cache = freshCache();
    const plain = await renderChart(SPEC);
    cache.put(cache.key(SPEC), CHART);
    writeFileSync(join(cache.dir, `${cache.key(SPEC)}.json`), "{ damaged");
    expect(await renderChart(SPEC, cache)).toEqual(plain);
    expect(cache.get(cache.key(SPEC))).toEqual(plain);
  });
});

describe("renderCharts", () => {
  it("gives each spec's chart in order, as renderChart does one at a time, reading those the cache holds", async () => {
    const other: TopLevelSpec = { ...SPEC, mark: "point" };
    const alone = [await renderChart(SPEC), await renderChart(other)];
    expect(await renderCharts([SPEC, other, SPEC])).toEqual([alone[0], alone[1], alone[0]]);
    const cache = freshCache();
    cache.put(cache.key(other), CHART);
    expect(await renderCharts([SPEC, other], cache)).toEqual([alone[0], CHART]);
    expect(cache.get(cache.key(SPEC))).toEqual(alone[0]);
  });
});

/** The entry a planted chart is stored as, parsed. */
function entryOf(cache: ChartCache, key: string): Record<string, unknown> {
  cache.put(key, CHART);
  return JSON.parse(readFileSync(join(cache.dir, `${key}.json`), "utf8")) as Record<string, unknown>;
}

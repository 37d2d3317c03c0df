/**
 * Rendered charts kept between runs, so a report run renders only the charts whose spec changed
 * (rendering, PNG above all, is most of a report run's time). An entry is addressed by the sha256
 * of the spec and of the code that renders it (the project's source and lockfile: the render
 * step, the fonts, Vega's and resvg's versions), so it never outlives a change to either. Each is
 * one JSON file, written atomically, with a checksum over its content: an entry that is damaged
 * or not an entry is not trusted, and the chart is rendered again and the entry rewritten.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { codeVersion } from "../../harness/runner/code-version.js";
import { writeFileAtomicSync } from "../../shared/atomic-write.js";

/** Where a report run keeps its rendered charts, inside its output folder; never committed. */
export const CHART_CACHE_DIR = ".recollect/chart-cache";

export interface CachedChart {
  svg: string;
  png: Buffer;
  warnings: string[];
}

const entrySchema = z.object({
  svg: z.string(),
  png: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/),
  warnings: z.array(z.string()),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export class ChartCache {
  constructor(
    /** The folder entries live in. */
    readonly dir: string,
    /** What the render step's output depends on besides the spec (by default the code's version). */
    private readonly version: string = codeVersion(),
  ) {}

  /** The key of `spec`'s chart: the spec's canonical JSON and the render code's version, hashed. */
  key(spec: unknown): string {
    return createHash("sha256").update(this.version).update("\0").update(JSON.stringify(spec)).digest("hex");
  }

  /** The chart stored under `key`, or undefined when there is none or the entry cannot be trusted. */
  get(key: string): CachedChart | undefined {
    const file = this.file(key);
    if (!existsSync(file)) return undefined;
    let parsed;
    try {
      parsed = entrySchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    } catch {
      return undefined;
    }
    if (!parsed.success) return undefined;
    const { svg, png, warnings, sha256 } = parsed.data;
    const chart = { svg, png: Buffer.from(png, "base64"), warnings };
    return checksum(chart) === sha256 ? chart : undefined;
  }

  put(key: string, chart: CachedChart): void {
    const entry = { svg: chart.svg, png: chart.png.toString("base64"), warnings: chart.warnings, sha256: checksum(chart) };
    writeFileAtomicSync(this.file(key), JSON.stringify(entry));
  }

  private file(key: string): string {
    return join(this.dir, `${key}.json`);
  }
}

function checksum(chart: CachedChart): string {
  const hash = createHash("sha256").update(chart.svg).update("\0").update(chart.png);
  for (const warning of chart.warnings) hash.update("\0").update(warning);
  return hash.digest("hex");
}

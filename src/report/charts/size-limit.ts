import type { OutputFile } from "../reporter.js";

/**
 * The largest PNG a chart may be: shown 1,000 px wide its text stays legible, and it fits a
 * screen or two. The charts aim for these through theme's MAX_CHART_WIDTH and MAX_CHART_HEIGHT
 * (their SVGs are drawn at twice the size); this is the check that they did.
 */
export const MAX_PNG_WIDTH = 2000;
export const MAX_PNG_HEIGHT = 2400;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's header chunk, or undefined for bytes that are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | undefined {
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const px = (n: number) => n.toLocaleString("en-US");

/** One line per rendered PNG chart wider or taller than the limits, naming the chart and its size. */
export function oversizedCharts(files: readonly OutputFile[]): string[] {
  return files.flatMap((file) => {
    if (!file.path.endsWith(".png") || typeof file.content === "string") return [];
    const size = pngSize(file.content);
    if (size === undefined || (size.width <= MAX_PNG_WIDTH && size.height <= MAX_PNG_HEIGHT)) return [];
    return [
      `${file.path} is ${px(size.width)} × ${px(size.height)} px, larger than a chart may be (${px(MAX_PNG_WIDTH)} × ${px(MAX_PNG_HEIGHT)} px): ` +
        "fewer ablations per chart, or a chart that draws them more compactly",
    ];
  });
}

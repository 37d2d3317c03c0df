import { readFileSync } from "node:fs";

/**
 * Advance widths read from a TrueType file (cmap + hmtx), enough to measure a line of text the
 * way the PNG renderer will draw it. Without this, Vega has no canvas in Node and guesses 0.8em
 * per character, which for DejaVu Sans overestimates by about a third: titles then claim far too
 * much room and axis labels are cut short.
 */
export class FontMetrics {
  private constructor(
    private readonly unitsPerEm: number,
    private readonly advances: Uint16Array,
    private readonly glyphOf: Map<number, number>,
  ) {}

  static fromFile(file: string): FontMetrics {
    return FontMetrics.fromBuffer(readFileSync(file), file);
  }

  static fromBuffer(font: Buffer, name = "font"): FontMetrics {
    try {
      return FontMetrics.parse(font, name);
    } catch (error) {
      if (error instanceof RangeError) throw new Error(`${name}: truncated or not a TrueType font`, { cause: error });
      throw error;
    }
  }

  private static parse(font: Buffer, name: string): FontMetrics {
    const tables = tableOffsets(font, name);
    const head = tables.get("head");
    const hhea = tables.get("hhea");
    const hmtx = tables.get("hmtx");
    const cmap = tables.get("cmap");
    if (head === undefined || hhea === undefined || hmtx === undefined || cmap === undefined) {
      throw new Error(`${name}: not a TrueType font with head, hhea, hmtx and cmap tables`);
    }
    const unitsPerEm = font.readUInt16BE(head + 18);
    const metricCount = font.readUInt16BE(hhea + 34);
    const advances = new Uint16Array(metricCount);
    for (let i = 0; i < metricCount; i++) advances[i] = font.readUInt16BE(hmtx + 4 * i);
    return new FontMetrics(unitsPerEm, advances, readCmap(font, cmap, name));
  }

  /** Width in pixels of `text` at `fontSize`, without kerning. */
  width(text: string, fontSize: number): number {
    let units = 0;
    for (const char of text) {
      const glyph = this.glyphOf.get(char.codePointAt(0)!) ?? 0;
      // Glyphs past the last metric share its advance (the monospaced tail of hmtx).
      units += this.advances[Math.min(glyph, this.advances.length - 1)]!;
    }
    return (units / this.unitsPerEm) * fontSize;
  }
}

function tableOffsets(font: Buffer, name: string): Map<string, number> {
  if (font.length < 12) throw new Error(`${name}: too short to be a font`);
  const count = font.readUInt16BE(4);
  const tables = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const record = 12 + 16 * i;
    tables.set(font.toString("latin1", record, record + 4), font.readUInt32BE(record + 8));
  }
  return tables;
}

/** Unicode code point → glyph id, from a format 12 (full Unicode) or format 4 (BMP) subtable. */
function readCmap(font: Buffer, cmap: number, name: string): Map<number, number> {
  const count = font.readUInt16BE(cmap + 2);
  let format4: number | undefined;
  let format12: number | undefined;
  for (let i = 0; i < count; i++) {
    const record = cmap + 4 + 8 * i;
    const platform = font.readUInt16BE(record);
    const encoding = font.readUInt16BE(record + 2);
    const subtable = cmap + font.readUInt32BE(record + 4);
    const format = font.readUInt16BE(subtable);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    if (format === 12) format12 ??= subtable;
    if (format === 4) format4 ??= subtable;
  }
  if (format12 !== undefined) return readFormat12(font, format12);
  if (format4 !== undefined) return readFormat4(font, format4);
  throw new Error(`${name}: no Unicode character map`);
}

function readFormat12(font: Buffer, at: number): Map<number, number> {
  const map = new Map<number, number>();
  const groups = font.readUInt32BE(at + 12);
  for (let i = 0; i < groups; i++) {
    const group = at + 16 + 12 * i;
    const start = font.readUInt32BE(group);
    const end = font.readUInt32BE(group + 4);
    const glyph = font.readUInt32BE(group + 8);
    for (let c = start; c <= end; c++) map.set(c, glyph + (c - start));
  }
  return map;
}

function readFormat4(font: Buffer, at: number): Map<number, number> {
  const map = new Map<number, number>();
  const segments = font.readUInt16BE(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  for (let s = 0; s < segments; s++) {
    const end = font.readUInt16BE(ends + 2 * s);
    const start = font.readUInt16BE(starts + 2 * s);
    const delta = font.readInt16BE(deltas + 2 * s);
    const rangeOffsetAt = rangeOffsets + 2 * s;
    const rangeOffset = font.readUInt16BE(rangeOffsetAt);
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let glyph: number;
      if (rangeOffset === 0) {
        glyph = (c + delta) & 0xffff;
      } else {
        const raw = font.readUInt16BE(rangeOffsetAt + rangeOffset + 2 * (c - start));
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (glyph !== 0) map.set(c, glyph);
    }
  }
  return map;
}

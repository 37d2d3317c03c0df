/**
 * Reads the geometry of the text in a rendered chart SVG: where each piece of text sits on the
 * canvas, measured with the same font metrics the PNG renderer draws with. Tests use it to check
 * sizes, overlaps and placement by numbers rather than by eye.
 */
import { FontMetrics } from "../../../src/report/charts/font-metrics.js";
import { fontFiles } from "../../../src/report/charts/fonts.js";

type Matrix = [number, number, number, number, number, number]; // a b c d e f, as in SVG
type Point = [number, number];

export interface TextBox {
  text: string;
  fontSize: number;
  /** The classes of the enclosing groups, innermost last (e.g. "mark-text role-axis-label"). */
  groups: string[];
  /** The four corners of the line's box on the canvas (a rotated label gives a rotated box). */
  corners: Point[];
}

export interface SvgGeometry {
  width: number;
  height: number;
  texts: TextBox[];
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

function parseTransform(text: string | undefined): Matrix {
  let m = IDENTITY;
  for (const [, op, args] of (text ?? "").matchAll(/(\w+)\(([^)]*)\)/g)) {
    const v = args!.split(/[\s,]+/).filter((s) => s !== "").map(Number);
    if (op === "translate") m = multiply(m, [1, 0, 0, 1, v[0] ?? 0, v[1] ?? 0]);
    else if (op === "scale") m = multiply(m, [v[0]!, 0, 0, v[1] ?? v[0]!, 0, 0]);
    else if (op === "rotate") {
      const r = ((v[0] ?? 0) * Math.PI) / 180;
      const [cx, cy] = [v[1] ?? 0, v[2] ?? 0];
      m = multiply(m, [1, 0, 0, 1, cx, cy]);
      m = multiply(m, [Math.cos(r), Math.sin(r), -Math.sin(r), Math.cos(r), 0, 0]);
      m = multiply(m, [1, 0, 0, 1, -cx, -cy]);
    } else if (op === "matrix") m = multiply(m, v as Matrix);
    else throw new Error(`unsupported SVG transform ${op}`);
  }
  return m;
}

function apply(m: Matrix, [x, y]: Point): Point {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, value] of source.matchAll(/([\w:-]+)="([^"]*)"/g)) out[name!] = value!;
  return out;
}

function decode(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, "&");
}

let fonts: { regular: FontMetrics; bold: FontMetrics } | undefined;
function measure(text: string, fontSize: number, bold: boolean): number {
  const [regular, boldFile] = fontFiles();
  fonts ??= { regular: FontMetrics.fromFile(regular!), bold: FontMetrics.fromFile(boldFile!) };
  return (bold ? fonts.bold : fonts.regular).width(text, fontSize);
}

/** Vertical extent of a line around its baseline: cap height above, descenders below (DejaVu Sans). */
const ASCENT = 0.76;
const DESCENT = 0.24;

/** Every visible line of text in a Vega SVG, with its box on the canvas. */
export function svgGeometry(svg: string): SvgGeometry {
  const root = attributes(/<svg\b([^>]*)>/.exec(svg)![1]!);
  const texts: TextBox[] = [];
  const stack: { matrix: Matrix; className: string }[] = [{ matrix: IDENTITY, className: "" }];
  const tags = /<(\/?)(g|text)\b([^>]*?)(\/?)>/g;
  for (let match = tags.exec(svg); match !== null; match = tags.exec(svg)) {
    const [, closing, tag, attrText, selfClosing] = match;
    if (tag === "g") {
      if (closing) stack.pop();
      else if (!selfClosing) {
        const a = attributes(attrText!);
        stack.push({ matrix: multiply(stack.at(-1)!.matrix, parseTransform(a.transform)), className: a.class ?? "" });
      }
      continue;
    }
    if (closing || selfClosing) continue;
    const end = svg.indexOf("</text>", tags.lastIndex);
    const body = svg.slice(tags.lastIndex, end);
    tags.lastIndex = end + "</text>".length;
    const a = attributes(attrText!);
    if (Number(a.opacity ?? 1) === 0 || Number(a["fill-opacity"] ?? 1) === 0 || a.fill === "transparent") continue;
    const fontSize = Number.parseFloat(a["font-size"] ?? "11");
    const bold = a["font-weight"] === "bold" || Number(a["font-weight"]) >= 600;
    const matrix = multiply(multiply(stack.at(-1)!.matrix, [1, 0, 0, 1, Number(a.x ?? 0), Number(a.y ?? 0)]), parseTransform(a.transform));
    const lines: { text: string; dy: number }[] = [];
    if (body.includes("<tspan")) {
      let dy = 0;
      for (const [, spanAttrs, spanText] of body.matchAll(/<tspan\b([^>]*)>([^<]*)<\/tspan>/g)) {
        dy += Number.parseFloat(attributes(spanAttrs!).dy ?? "0");
        lines.push({ text: decode(spanText!), dy });
      }
    } else lines.push({ text: decode(body), dy: 0 });
    for (const line of lines) {
      if (line.text.trim() === "") continue;
      const width = measure(line.text, fontSize, bold);
      const anchor = a["text-anchor"] ?? "start";
      const x0 = anchor === "middle" ? -width / 2 : anchor === "end" ? -width : 0;
      const top = line.dy - ASCENT * fontSize;
      const bottom = line.dy + DESCENT * fontSize;
      const corners: Point[] = [
        [x0, top],
        [x0 + width, top],
        [x0 + width, bottom],
        [x0, bottom],
      ].map((p) => apply(matrix, p as Point));
      texts.push({ text: line.text, fontSize, groups: stack.map((s) => s.className).filter((c) => c !== ""), corners });
    }
  }
  return { width: Number(root.width), height: Number(root.height), texts };
}

function project(corners: Point[], axis: Point): [number, number] {
  const values = corners.map(([x, y]) => x * axis[0] + y * axis[1]);
  return [Math.min(...values), Math.max(...values)];
}

/**
 * Whether two text boxes overlap by more than `tolerance` pixels, by the separating axis
 * theorem (the boxes are convex, and rotated ones stay exact).
 */
export function overlaps(a: TextBox, b: TextBox, tolerance = 0.5): boolean {
  for (const box of [a.corners, b.corners]) {
    for (let i = 0; i < box.length; i++) {
      const [x1, y1] = box[i]!;
      const [x2, y2] = box[(i + 1) % box.length]!;
      const length = Math.hypot(x2 - x1, y2 - y1);
      if (length === 0) continue;
      const axis: Point = [-(y2 - y1) / length, (x2 - x1) / length];
      const [minA, maxA] = project(a.corners, axis);
      const [minB, maxB] = project(b.corners, axis);
      if (Math.min(maxA, maxB) - Math.max(minA, minB) <= tolerance) return false;
    }
  }
  return true;
}

/** Every pair of overlapping texts, as readable strings. */
export function overlappingTexts(geometry: SvgGeometry, tolerance = 0.5): string[] {
  const found: string[] = [];
  const { texts } = geometry;
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      if (overlaps(texts[i]!, texts[j]!, tolerance)) found.push(`"${texts[i]!.text}" overlaps "${texts[j]!.text}"`);
    }
  }
  return found;
}

export function bounds(box: TextBox): { left: number; right: number; top: number; bottom: number } {
  const xs = box.corners.map((p) => p[0]);
  const ys = box.corners.map((p) => p[1]);
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}

/** Texts drawn inside a group whose class contains `role` (e.g. "role-legend", "role-axis-label"). */
export function textsIn(geometry: SvgGeometry, role: string): TextBox[] {
  return geometry.texts.filter((t) => t.groups.some((g) => g.split(/\s+/).includes(role)));
}

/** Width and height of a PNG, from its IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

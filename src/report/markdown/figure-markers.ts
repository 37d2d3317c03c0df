import { fileError } from "../../shared/errors.js";

/**
 * Marker blocks in hand-written markdown whose content is generated:
 *
 *     <!-- figures experiment=core ablation=no-touch scenario=touch-keeps-fact-alive metric=recall_any@1 -->
 *     … regenerated …
 *     <!-- /figures -->
 *
 * A block of `kind=sweep` quotes an experiment's sweep (its held-out choice and folds) and
 * names the experiment alone; `kind=backends` asks whether the conclusions drawn with shared words
 * hold with embeddings (the experiment alone); `kind=disagreement` shows where embeddings and BM25
 * disagree, by question category (the experiment and a rank metric).
 *
 * A marker must stand alone on its line, and markers inside fenced code blocks are ignored, so
 * that prose can show the syntax without being rewritten.
 */

export interface FigureMarker {
  /** `comparison` (the default): an ablation against the baseline; `sweep`, `backends`, `disagreement`: see above. */
  kind: "comparison" | "sweep" | "backends" | "disagreement";
  experiment: string;
  /** Empty for a sweep. */
  ablation: string;
  metric: string;
  scenario?: string;
  /** The opening comment as written, for error messages. */
  text: string;
  /** 1-based line of the opening comment. */
  line: number;
}

const OPEN = /^\s*<!--\s*figures(\s[^>]*?)?\s*-->\s*$/;
const CLOSE = /^\s*<!--\s*\/figures\s*-->\s*$/;
const FENCE = /^\s*(```|~~~)/;
const ATTRIBUTE = /([A-Za-z]+)=("[^"]*"|[^\s"]+)/y;
const REQUIRED = ["experiment", "ablation", "metric"] as const;
const KINDS = ["comparison", "sweep", "backends", "disagreement"] as const;
/** The keys each kind needs; a kind names no other key but these and `kind`. */
const NEEDS: Record<(typeof KINDS)[number], readonly string[]> = {
  comparison: REQUIRED,
  sweep: ["experiment"],
  backends: ["experiment"],
  disagreement: ["experiment", "metric"],
};
const KNOWN = new Set<string>([...REQUIRED, "scenario", "kind"]);

interface Block {
  marker: FigureMarker;
  openIndex: number;
  closeIndex: number;
}

export function findFigureMarkers(source: string, file: string): FigureMarker[] {
  return findBlocks(splitLines(source).lines, file).map((b) => b.marker);
}

/**
 * Replaces the content of every marker block with `render(marker)`, set off by blank lines.
 * Everything outside the blocks is kept byte for byte, so filling a filled file changes nothing
 * unless the figures did.
 */
export function fillFigureMarkers(source: string, file: string, render: (marker: FigureMarker) => string): string {
  const { lines, eol } = splitLines(source);
  const blocks = findBlocks(lines, file);
  const out: string[] = [];
  let next = 0;
  for (const block of blocks) {
    out.push(...lines.slice(next, block.openIndex + 1));
    out.push("", ...splitLines(render(block.marker).trim()).lines, "");
    next = block.closeIndex;
  }
  out.push(...lines.slice(next));
  return out.join(eol);
}

export function markerError(file: string, marker: Pick<FigureMarker, "line" | "text">, problem: string) {
  return fileError(file, `line ${marker.line}: ${problem} in marker ${marker.text.trim()}`);
}

function findBlocks(lines: readonly string[], file: string): Block[] {
  const blocks: Block[] = [];
  let open: { marker: FigureMarker; openIndex: number } | undefined;
  let inFence = false;
  lines.forEach((line, index) => {
    if (FENCE.test(line)) {
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    const opening = OPEN.exec(line);
    if (opening) {
      const text = line.trim();
      if (open !== undefined) {
        throw markerError(file, open.marker, `no closing <!-- /figures --> before the next marker on line ${index + 1}`);
      }
      open = { marker: parseAttributes(opening[1] ?? "", { text, line: index + 1 }, file), openIndex: index };
    } else if (CLOSE.test(line)) {
      if (open === undefined) {
        throw markerError(file, { line: index + 1, text: line }, "a closing marker without an opening one");
      }
      blocks.push({ ...open, closeIndex: index });
      open = undefined;
    }
  });
  if (open !== undefined) throw markerError(file, open.marker, "no closing <!-- /figures -->");
  return blocks;
}

function parseAttributes(text: string, where: { text: string; line: number }, file: string): FigureMarker {
  const values: Record<string, string> = {};
  let at = 0;
  while (at < text.length) {
    if (/\s/.test(text[at])) {
      at++;
      continue;
    }
    ATTRIBUTE.lastIndex = at;
    const match = ATTRIBUTE.exec(text);
    if (match === null) throw markerError(file, where, `expected key=value at "${text.slice(at).trim()}"`);
    const [, key, raw] = match;
    if (!KNOWN.has(key)) {
      throw markerError(file, where, `unknown key "${key}" (expected ${[...KNOWN].join(", ")})`);
    }
    if (key in values) throw markerError(file, where, `"${key}" is given twice`);
    values[key] = raw.startsWith('"') ? raw.slice(1, -1) : raw;
    at = ATTRIBUTE.lastIndex;
  }
  const kind = (values.kind ?? "comparison") as FigureMarker["kind"];
  if (!KINDS.includes(kind)) throw markerError(file, where, `unknown kind "${values.kind}" (expected ${KINDS.join(", ")})`);
  for (const key of NEEDS[kind]) {
    if (!values[key]) throw markerError(file, where, `"${key}" is missing`);
  }
  const extra = Object.keys(values).find((key) => key !== "kind" && !NEEDS[kind].includes(key) && !(kind === "comparison" && key === "scenario"));
  if (extra !== undefined) {
    throw markerError(file, where, kind === "sweep" ? "a sweep block names its experiment alone" : `a ${kind} block takes ${NEEDS[kind].join(" and ")} only, not "${extra}"`);
  }
  return {
    kind,
    experiment: values.experiment,
    ablation: values.ablation ?? "",
    metric: values.metric ?? "",
    ...(values.scenario === undefined ? {} : { scenario: values.scenario }),
    ...where,
  };
}

function splitLines(source: string): { lines: string[]; eol: string } {
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  return { lines: source.split(/\r?\n/), eol };
}

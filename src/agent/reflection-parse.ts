/**
 * Parsing of the two reflection replies: a list of questions, and insights that cite their
 * evidence by statement number, as in "Klaus is dedicated to research (because of 1, 5, 3)".
 * Models number, bullet, bold and phrase these freely, so the parsers accept the common shapes.
 */

export interface ParsedInsight {
  text: string;
  /** 1-based statement numbers, in the order cited, without repeats. */
  evidence: number[];
}

const LIST_MARKER = /^\s*(?:[-*•]\s*|(?:q(?:uestion)?\s*)?\d+\s*[.):]\s*|#+\s*)+/i;

/** The questions of a reply, at most `limit`, without numbering or decoration. */
export function parseQuestions(reply: string, limit: number): string[] {
  const lines = reply
    .split("\n")
    .map((line) => clean(line.replace(LIST_MARKER, "")))
    .filter((line) => line.length > 0 && !line.endsWith(":"));
  const questions = lines.filter((line) => line.endsWith("?"));
  return dedupe(questions.length > 0 ? questions : lines).slice(0, limit);
}

// "(because of 1, 5, 3)", "[because of statements 1 and 2]", "(evidence: 4)", "(based on #2, #7)".
const CITATION =
  /[([]\s*(?:because(?:\s+of)?|evidence|based\s+on|from|see|sources?)\s*:?\s*((?:(?:statements?|memories|items?|and|&|#|,|\s)*\d+)+)\s*[)\]]/i;
// An uncited trailing form: "... because of 1, 5 and 3."
const TRAILING = /\s*\bbecause\s+of\s+(?:statements?\s*)?((?:(?:and|&|#|,|\s)*\d+)+)\s*\.?\s*$/i;

/** Insights with at least one cited statement number; lines without a citation are skipped. */
export function parseInsights(reply: string): ParsedInsight[] {
  const insights: ParsedInsight[] = [];
  for (const raw of reply.split("\n")) {
    const line = raw.replace(LIST_MARKER, "").replace(/\*\*/g, "");
    const match = CITATION.exec(line) ?? TRAILING.exec(line);
    if (!match) continue;
    const evidence = dedupe((match[1]!.match(/\d+/g) ?? []).map(Number));
    const text = clean(line.slice(0, match.index) + " " + line.slice(match.index + match[0].length));
    if (text.length > 0 && evidence.length > 0) insights.push({ text, evidence });
  }
  return insights;
}

function clean(text: string): string {
  return text
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^["“']+|["”']+$/g, "")
    .replace(/\s+([.,;:!?])/g, "$1")
    .replace(/^[.,;:\s]+/, "")
    .trim();
}

function dedupe<T>(items: T[]): T[] {
  return [...new Set(items)];
}

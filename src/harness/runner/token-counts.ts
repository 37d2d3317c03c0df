import type { TokenCounter } from "../../memory/index.js";

/** Counts each distinct text once, however often it is asked for. */
export function memoisedCounter(inner: TokenCounter): TokenCounter {
  const cache = new Map<string, number>();
  return {
    count(text: string): number {
      let n = cache.get(text);
      if (n === undefined) {
        n = inner.count(text);
        cache.set(text, n);
      }
      return n;
    },
  };
}

/**
 * A counter that only looks counts up: a trial's lines were all counted before the run (see
 * pricedLines). A line missing from the table means that list and the store disagree, which is a
 * bug to fix there, not something to paper over by counting again in every worker.
 */
export function tableCounter(lines: readonly string[], counts: readonly number[]): TokenCounter {
  const table = new Map<string, number>();
  lines.forEach((line, i) => table.set(line, counts[i]));
  return {
    count(text: string): number {
      const n = table.get(text);
      if (n === undefined) throw new Error(`no token count was prepared for the line ${JSON.stringify(text.slice(0, 80))}; pricedLines() misses a line the store prices`);
      return n;
    },
  };
}

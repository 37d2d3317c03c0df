import { loadGemmaTokenizer } from "../../memory/index.js";
import type { TokenCounter } from "../../memory/tokenizer.js";
import type { Trial } from "../results/types.js";
import { runTrial, type TrialInput } from "./trial.js";

/**
 * The trial runner as a worker-pool task. The tokenizer loads once per worker, and line costs are
 * memoised: a benchmark writes the same texts in every (ablation, seed) trial.
 */
let counter: Promise<TokenCounter> | undefined;

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

async function tokenCounter(): Promise<TokenCounter> {
  counter ??= loadGemmaTokenizer().then(memoisedCounter);
  return counter;
}

export default async function runTrialTask(input: TrialInput): Promise<Trial> {
  return runTrial(input, await tokenCounter());
}

import { loadGemmaTokenizer } from "../../memory/index.js";
import type { TokenCounter } from "../../memory/tokenizer.js";
import { isUserError } from "../../shared/errors.js";
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

/** A trial, or the message of the UserError it stopped with. */
export type TrialOutcome = { trial: Trial } | { userError: string };

/**
 * A UserError is returned, not thrown: an error thrown in a worker thread reaches the main thread
 * as a plain Error, and the CLI would take it for a bug.
 */
export default async function runTrialTask(input: TrialInput): Promise<TrialOutcome> {
  try {
    return { trial: runTrial(input, await tokenCounter()) };
  } catch (error) {
    if (isUserError(error)) return { userError: error.message };
    throw error;
  }
}

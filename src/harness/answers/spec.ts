/**
 * What the answer-level evaluation runs. It is described here rather than by a file in
 * experiments/, because every file there is run as a retrieval experiment and its results are
 * read from results/*.json; the answer run reuses the core experiment's scenarios, policies and
 * variation, and keeps its own files apart.
 */

/** One way of answering: a retrieval ablation of the experiment, with or without reflection. */
export interface AnswerCondition {
  name: string;
  /** The experiment's ablation whose policy builds the block. */
  ablation: string;
  /** Whether reflection runs when the summed importance of new memories passes the threshold. */
  reflection: boolean;
  description: string;
}

export const ANSWER_CONDITIONS: readonly AnswerCondition[] = [
  { name: "full", ablation: "full", reflection: true, description: "per-kind block of the full system, with reflection" },
  { name: "pooled", ablation: "pooled", reflection: true, description: "one pooled ranking at the same total token budget, with reflection" },
  { name: "no-reflection", ablation: "full", reflection: false, description: "the full system's block, reflection turned off" },
];

export interface AnswerRunSpec {
  /** The experiment whose scenarios (those with answer keys), policies and variation are used. */
  experiment: string;
  /** The recording set every model call of the run goes through. */
  recordings: string;
  /** Where the graded answers are written. */
  results: string;
  /** How many of the experiment's seeds to record (the first ones); each is also the model's sampling seed. A replay runs the seeds its recordings hold. */
  seeds: number;
  conditions: readonly AnswerCondition[];
}

const DEFAULT_ANSWER_SEEDS = 5;

/** Paths are relative to the repository root. results/answers/ is outside the results/*.json glob. */
export const ANSWER_RUN: AnswerRunSpec = {
  experiment: "experiments/core.yaml",
  recordings: "recordings/answers.json",
  results: "results/answers/core.json",
  seeds: DEFAULT_ANSWER_SEEDS,
  conditions: ANSWER_CONDITIONS,
};

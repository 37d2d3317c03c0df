import type { ExperimentResults } from "../harness/results/types.js";
import type { ExperimentSummary } from "../harness/summary-types.js";

/** A file a reporter wants written, relative to the repository root. */
export interface OutputFile {
  path: string;
  content: string | Buffer;
}

export interface ReportContext {
  /** Every recorded experiment, sorted by name. */
  results: ExperimentResults[];
  /** The statistics of each, in the same order. */
  summaries: ExperimentSummary[];
  /** The generated findings of each, in the same order: what EVALUATION.md and the HTML report open with. */
  findings: { experiment: string; sentences: string[] }[];
  /** Reads a file that a report embeds or fills in (e.g. the prose of FAILURE_ANALYSIS.md). */
  readExisting(path: string): string | undefined;
}

/**
 * One reporter per output, as in vitest's reporter registry: markdown, charts and HTML share this
 * shape. A reporter returns its files rather than writing them, so the check can compare them
 * with what is on disk and `experiment` can write them all atomically.
 */
export interface Reporter {
  name: string;
  render(context: ReportContext): Promise<OutputFile[]>;
}

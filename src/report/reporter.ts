import type { ExperimentResults } from "../harness/results/types.js";
import type { ExperimentSummary } from "../harness/summary-types.js";

/** A file a reporter wants written, relative to the repository root. */
export interface OutputFile {
  path: string;
  content: string | Buffer;
}

/**
 * The generated sentences that open EVALUATION.md, per experiment, in markdown. The HTML report
 * shows the same sentences in its Findings box; an empty list shows no box.
 */
export type Findings = { experiment: string; sentences: string[] }[];

export interface ReportContext {
  /** Every recorded experiment, sorted by name. */
  results: ExperimentResults[];
  /** The statistics of each, in the same order. */
  summaries: ExperimentSummary[];
  /** The generated findings; absent or empty when none were generated. */
  findings?: Findings;
  /** Reads a file that a report embeds or fills in (e.g. the prose of FAILURE_ANALYSIS.md). */
  readExisting(path: string): string | undefined;
}

/**
 * One reporter per output, as in vitest's reporters: markdown, charts and HTML share this shape.
 * A reporter returns its files rather than writing them, so the check can compare them with what
 * is on disk and `experiment` can write them all atomically.
 */
export interface Reporter {
  name: string;
  /**
   * The folder this reporter alone writes into, for one experiment or (without one) for all; a
   * file there that a render does not produce is an orphan and is removed.
   */
  owns?(experiment?: string): string;
  render(context: ReportContext): Promise<OutputFile[]>;
}

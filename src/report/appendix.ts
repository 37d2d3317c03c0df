import { experimentViews } from "./evaluation.js";
import { renderAppendix } from "./markdown/appendix.js";
import { appendixPath } from "./paths.js";
import type { OutputFile, ReportContext, Reporter } from "./reporter.js";

/** Each experiment's appendix, reports/<experiment>.md: every metric, comparison and rank change. */
export const appendixReporter: Reporter = {
  name: "appendix",
  async render(context: ReportContext): Promise<OutputFile[]> {
    return experimentViews(context).map((view) => ({ path: appendixPath(view.results.experiment.name), content: renderAppendix(view) }));
  },
};

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExperimentResults } from "../harness/results/types.js";
import { summarise } from "../harness/summary.js";
import { writeFileAtomicSync } from "../shared/atomic-write.js";
import { reporters } from "./registry.js";
import type { OutputFile, ReportContext } from "./reporter.js";
import { byCodeUnit } from "../shared/order.js";

/** The statistics' seed: reports are a pure function of the results. */
const STATISTICS_SEED = 20240501;

export interface RenderOptions {
  /**
   * The project's own folder: its JSON Schemas and FAILURE_ANALYSIS.md are rendered too. A user's
   * output folder gets EVALUATION.md, the charts and the HTML report only.
   */
  project?: boolean;
}

/** Every report file, rendered in memory from recorded results; paths are relative to `root`. */
export async function renderReports(results: ExperimentResults[], root: string, options: RenderOptions = {}): Promise<OutputFile[]> {
  const sorted = [...results].sort((a, b) => byCodeUnit(a.experiment.name, b.experiment.name));
  const context: ReportContext = {
    project: options.project ?? true,
    results: sorted,
    summaries: sorted.map((r) => summarise(r, { seed: STATISTICS_SEED })),
    readExisting: (path) => {
      const file = join(root, path);
      return existsSync(file) ? readFileSync(file, "utf8") : undefined;
    },
  };
  const files: OutputFile[] = [];
  for (const reporter of reporters({ project: options.project ?? true })) files.push(...(await reporter.render(context)));
  return files;
}

function sameContent(file: string, content: string | Buffer): boolean {
  if (!existsSync(file)) return false;
  return readFileSync(file).equals(typeof content === "string" ? Buffer.from(content) : content);
}

/** Report files whose content on disk differs from what the results give now. */
export function staleReports(files: OutputFile[], root: string): string[] {
  return files.filter((f) => !sameContent(join(root, f.path), f.content)).map((f) => f.path);
}

/** Writes the files that changed, each atomically; returns their paths. */
export function writeReports(files: OutputFile[], root: string): string[] {
  const changed = staleReports(files, root);
  for (const f of files) if (changed.includes(f.path)) writeFileAtomicSync(join(root, f.path), f.content);
  return changed;
}

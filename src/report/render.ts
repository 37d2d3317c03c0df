import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ExperimentResults } from "../harness/results/types.js";
import { DEFAULT_SUMMARY_SEED, summarise } from "../harness/summary.js";
import { writeFileAtomicSync } from "../shared/atomic-write.js";
import { experimentFindings } from "./markdown/findings.js";
import { reporters } from "./registry.js";
import type { OutputFile, ReportContext } from "./reporter.js";
import { byCodeUnit } from "../shared/order.js";

/** The statistics' seed: reports are a pure function of the results. */
const STATISTICS_SEED = DEFAULT_SUMMARY_SEED;

/** Every report file, rendered in memory from recorded results. */
export async function renderReports(results: ExperimentResults[], root: string): Promise<OutputFile[]> {
  const sorted = [...results].sort((a, b) => byCodeUnit(a.experiment.name, b.experiment.name));
  const summaries = sorted.map((r) => summarise(r, { seed: STATISTICS_SEED }));
  const context: ReportContext = {
    results: sorted,
    summaries,
    findings: sorted.map((r, i) => experimentFindings(summaries[i], r.experiment)),
    readExisting: (path) => {
      const file = join(root, path);
      return existsSync(file) ? readFileSync(file, "utf8") : undefined;
    },
  };
  const files: OutputFile[] = [];
  for (const reporter of reporters()) files.push(...(await reporter.render(context)));
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

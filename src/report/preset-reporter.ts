import { serialisePolicyPreset } from "../harness/policy/preset-file.js";
import { applyPatch } from "../harness/policy/patch.js";
import { describeValues, patchOf } from "../harness/experiment/sweep-points.js";
import { presetPath } from "./paths.js";
import type { OutputFile, ReportContext, Reporter } from "./reporter.js";

/**
 * The policy each sweep chose on all of its experiment's asks, as a preset file
 * (results/<experiment>.preset.json) that `chat --policy` and an experiment's `policy: { file }`
 * read. It is generated from the recorded results like any report, so the check finds it stale
 * when the choice changes.
 */
export const presetReporter: Reporter = {
  name: "preset",
  async render(context: ReportContext): Promise<OutputFile[]> {
    return context.results.flatMap((results) => {
      const sweep = results.sweep;
      if (sweep === undefined) return [];
      const name = results.experiment.name;
      const point = sweep.points.find((p) => p.id === sweep.selection.chosen);
      if (point === undefined) throw new Error(`the sweep of "${name}" chose "${sweep.selection.chosen}", which is not one of its points`);
      const description =
        `Point ${point.id} of the sweep of ${name} (${describeValues(point.values)}), chosen on all its asks by ${sweep.objective.metric}` +
        `${sweep.objective.tokenPenalty === 0 ? "" : ` − ${sweep.objective.tokenPenalty} × tokens`}: ${point.label}.`;
      const policy = applyPatch(sweep.base, patchOf(point.values));
      return [{ path: presetPath(name), content: serialisePolicyPreset({ name: `${name}-${point.id}`, description, policy }) }];
    });
  },
};

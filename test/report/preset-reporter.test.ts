/**
 * A sweep's choice on all its asks becomes a preset file that chat and experiments read back:
 * the base policy with the chosen point's patch, named after the point.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyPatch } from "../../src/harness/policy/patch.js";
import { readPolicyPreset } from "../../src/harness/policy/preset-file.js";
import { patchOf } from "../../src/harness/experiment/sweep-points.js";
import { presetReporter } from "../../src/report/preset-reporter.js";
import type { ReportContext } from "../../src/report/reporter.js";
import { withSweep } from "../fixtures/sweep-results.js";
import { handMadeResults, handMadeSummary } from "./charts/hand-made-results.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const contextOf = (results: ReturnType<typeof handMadeResults>): ReportContext => ({
  results: [results],
  summaries: [handMadeSummary(results)],
  readExisting: () => undefined,
});

describe("the preset reporter", () => {
  it("writes the point chosen on all asks as a recollect-policy/1 file that the preset reader accepts", async () => {
    const results = withSweep();
    const sweep = results.sweep!;
    const chosen = sweep.points.find((p) => p.id === sweep.selection.chosen)!;
    const [file] = await presetReporter.render(contextOf(results));
    expect(file.path).toBe(`results/${results.experiment.name}.preset.json`);

    const dir = mkdtempSync(join(tmpdir(), "recollect-preset-"));
    dirs.push(dir);
    writeFileSync(join(dir, "preset.json"), file.content);
    const preset = readPolicyPreset(join(dir, "preset.json"));
    expect(preset.name).toBe(`${results.experiment.name}-${chosen.id}`);
    expect(preset.policy).toEqual(applyPatch(sweep.base, patchOf(chosen.values)));
    expect(preset.description).toContain(chosen.label);
  });

  it("writes nothing for an experiment without a sweep", async () => {
    expect(await presetReporter.render(contextOf(handMadeResults()))).toEqual([]);
  });

  it("refuses a recorded choice that is none of the sweep's points", async () => {
    const results = withSweep();
    results.sweep!.selection.chosen = "p999";
    await expect(presetReporter.render(contextOf(results))).rejects.toThrow(/chose "p999", which is not one of its points/);
  });
});

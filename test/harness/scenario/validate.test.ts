import { describe, expect, it } from "vitest";
import { scenarioSchema, type ScenarioInput } from "../../../src/harness/scenario/schema.js";
import { checkTimeline } from "../../../src/harness/scenario/validate.js";
import { FileError } from "../../../src/shared/errors.js";

/** A scenario of the given steps, parsed as a file's would be. */
function timeline(steps: ScenarioInput["steps"]) {
  return scenarioSchema.parse({ name: "spec", description: "a scenario under test", steps });
}

function refusal(steps: ScenarioInput["steps"]): string {
  try {
    checkTimeline("s.yaml", timeline(steps));
  } catch (error) {
    expect(error).toBeInstanceOf(FileError);
    return (error as FileError).message;
  }
  throw new Error("expected the timeline to be refused");
}

const tea = { id: "a", kind: "semantic" as const, text: "Tea" };

describe("checkTimeline: corrections", () => {
  it("refuses a second correction of one memory in a later step, naming the file, the step and the first correction", () => {
    const steps = [
      { remember: tea },
      { remember: { id: "b", kind: "semantic" as const, text: "Coffee", corrects: "a" } },
      { remember: { id: "c", kind: "semantic" as const, text: "Water", corrects: "a" } },
    ];
    expect(refusal(steps)).toBe(
      's.yaml: at steps[2].remember[0].corrects: "a" is already corrected by "b" at steps[1].remember[0]; a memory is corrected once, so correct "b" instead',
    );
  });

  it("refuses a second correction of one memory within one step", () => {
    const steps = [
      { remember: tea },
      {
        remember: [
          { id: "b", kind: "semantic" as const, text: "Coffee", corrects: "a" },
          { id: "c", kind: "semantic" as const, text: "Water", corrects: "a" },
        ],
      },
    ];
    expect(refusal(steps)).toBe(
      's.yaml: at steps[1].remember[1].corrects: "a" is already corrected by "b" at steps[1].remember[0]; a memory is corrected once, so correct "b" instead',
    );
  });

  it("accepts a chain of corrections, each correcting the one before", () => {
    const steps = [
      { remember: tea },
      { remember: { id: "b", kind: "semantic" as const, text: "Coffee", corrects: "a" } },
      { remember: { id: "c", kind: "semantic" as const, text: "Water", corrects: "b" } },
    ];
    expect(() => checkTimeline("s.yaml", timeline(steps))).not.toThrow();
  });
});

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runDemo } from "../../../src/cli/commands/demo.js";

const recorded = fileURLToPath(new URL("../../../results/demo.txt", import.meta.url));

describe("demo", () => {
  it("matches the recorded output byte for byte", async () => {
    expect(await runDemo()).toBe(readFileSync(recorded, "utf8"));
  });

  it("shows per-kind reaching every required memory while pooled misses some", async () => {
    const output = await runDemo();
    const summary = /per-kind reached (\d+)\/(\d+) required memories, pooled (\d+)\/(\d+)/.exec(output);
    expect(summary).not.toBeNull();
    const [, perKind, total, pooled] = summary!.map(Number);
    expect(perKind).toBe(total);
    expect(pooled).toBeLessThan(total);
    expect(output).not.toContain("PRESENT");
    expect(output.match(/corrected fact fact-budget-old: absent/g)).toHaveLength(4);
  });
});

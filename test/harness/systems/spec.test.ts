import { describe, expect, it } from "vitest";
import { fullPolicy } from "../../../src/memory/index.js";
import { callTimeout, DEFAULT_SYSTEM_TIMEOUT_MS, describeSystem, systemEntrySchema, systemInfoSchema, type SystemRef } from "../../../src/harness/systems/spec.js";

const refused = (entry: unknown) => {
  const parsed = systemEntrySchema.safeParse(entry);
  expect(parsed.success, JSON.stringify(entry)).toBe(false);
  return parsed.error!.issues;
};

describe("systemEntrySchema", () => {
  it("takes a built-in baseline by its name alone", () => {
    expect(systemEntrySchema.parse("recent-window")).toBe("recent-window");
    // Whether the name is built in is for the experiment to say, with the file and the path.
    expect(systemEntrySchema.parse("my-own-baseline")).toBe("my-own-baseline");
  });

  it("takes a module with its options, a 30-second timeout by default, and writes back as the policy does unless told", () => {
    expect(DEFAULT_SYSTEM_TIMEOUT_MS).toBe(30_000);
    expect(systemEntrySchema.parse({ name: "words", module: "words.ts" })).toEqual({ name: "words", module: "words.ts", options: {}, timeoutMs: 30_000 });
    expect(
      systemEntrySchema.parse({ name: "words", description: "shared words", module: "words.ts", options: { share: 0.5 }, timeoutMs: 500, writeBack: false }),
    ).toEqual({ name: "words", description: "shared words", module: "words.ts", options: { share: 0.5 }, timeoutMs: 500, writeBack: false });
  });

  it("takes a command as the program and its arguments", () => {
    expect(systemEntrySchema.parse({ name: "bm25", command: ["python3", "bm25_system.py"] })).toEqual({
      name: "bm25",
      command: ["python3", "bm25_system.py"],
      options: {},
      timeoutMs: 30_000,
    });
  });

  it("refuses names that are not lower-case letters, digits and dashes", () => {
    expect(refused("Recent Window").length).toBeGreaterThan(0);
    const issues = refused({ name: "My_System", module: "x.ts" });
    expect(JSON.stringify(issues)).toContain("use lower-case letters, digits and dashes");
    refused({ name: "-leading", command: ["x"] });
  });

  it("refuses an entry that is neither, or both, or has a key it does not know", () => {
    refused({ name: "none" });
    refused({ name: "both", module: "x.ts", command: ["x"] });
    refused({ name: "typo", module: "x.ts", timeout: 100 });
    refused({ name: "empty", command: [] });
    refused({ name: "blank", command: ["python3", ""] });
    refused({ name: "blank", module: "" });
    refused({ name: "string", command: "python3 x.py" });
  });

  it("refuses a timeout that is not a positive whole number of milliseconds", () => {
    for (const timeoutMs of [0, -5, 1.5, "1000"]) refused({ name: "t", command: ["x"], timeoutMs });
  });
});

describe("systemInfoSchema", () => {
  it("reads back each kind of system results record", () => {
    for (const info of [
      { type: "baseline", baseline: "full-context" },
      { type: "module", module: "words.ts", options: { share: 1 } },
      { type: "command", command: ["python3", "bm25_system.py"], options: {} },
    ]) {
      expect(systemInfoSchema.parse(info)).toEqual(info);
    }
    expect(systemInfoSchema.safeParse({ type: "command", command: "python3" }).success).toBe(false);
    expect(systemInfoSchema.safeParse({ type: "policy" }).success).toBe(false);
  });
});

describe("describeSystem", () => {
  it("says what runs, in the experiment's words", () => {
    expect(describeSystem({ type: "baseline", baseline: "recent-window" })).toBe("the built-in baseline recent-window");
    expect(describeSystem({ type: "module", module: "systems/words.ts", options: {} })).toBe("the module systems/words.ts");
    expect(describeSystem({ type: "command", command: ["python3", "bm25_system.py", "--k1", "1.2"], options: {} })).toBe(
      "a subprocess: python3 bm25_system.py --k1 1.2",
    );
  });
});

describe("callTimeout", () => {
  it("times out a user's module or command, and never recollect or a baseline", () => {
    const refs: [SystemRef, number | undefined][] = [
      [{ type: "recollect", policy: fullPolicy }, undefined],
      [{ type: "baseline", baseline: "full-context" }, undefined],
      [{ type: "module", file: "/x/words.ts", options: {}, timeoutMs: 750 }, 750],
      [{ type: "command", name: "bm25", command: ["python3"], cwd: "/x", options: {}, timeoutMs: 1200 }, 1200],
    ];
    for (const [ref, timeout] of refs) expect(callTimeout(ref), ref.type).toBe(timeout);
  });
});

import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fullPolicy, pooledPreset, type RetrievalPolicy } from "../../../src/memory/index.js";
import { experimentSchema, type ExperimentSpec } from "../../../src/harness/experiment/schema.js";
import { resolveSystems, systemBudget, systemFileContents } from "../../../src/harness/experiment/systems.js";
import { BASELINE_SYSTEMS } from "../../../src/harness/systems/baselines.js";
import { RecollectError } from "../../../src/shared/errors.js";
import { useTempDir } from "../temp-files.js";

const temp = useTempDir();
/** The experiment lives in exp/, beside a system module and script of its own, and a module outside it. */
const experimentFile = temp.write("exp/experiment.yaml", "# read by the tests through its spec alone\n");
const folder = temp.path("exp");
const moduleFile = temp.write("exp/systems/words.ts", "export default () => ({ async open() {} });\n");
const scriptFile = temp.write("exp/bm25_system.py", "print('bm25')\n");
const programFile = temp.write("exp/bin/memory-server", "#!/bin/sh\n");
const outsideModule = temp.write("elsewhere/words.ts", "export default () => ({ async open() {} });\n");
mkdirSync(temp.path("exp/data"));

const spec = (systems: unknown[], extra: Record<string, unknown> = {}): ExperimentSpec =>
  experimentSchema.parse({ name: "systems", description: "systems under test", scenarios: ["s.yaml"], ablations: ["full"], seeds: [1], systems, ...extra });

const resolved = (systems: unknown[], extra: Record<string, unknown> = {}, base: RetrievalPolicy = fullPolicy) =>
  resolveSystems(experimentFile, spec(systems, extra), base);

function refusal(systems: unknown[], extra: Record<string, unknown> = {}): string {
  try {
    resolved(systems, extra);
  } catch (error) {
    expect(error).toBeInstanceOf(RecollectError);
    return (error as RecollectError).message;
  }
  throw new Error("expected the systems to be refused");
}

describe("resolveSystems", () => {
  it("resolves a baseline by name, with its note, writing back as the base policy does", () => {
    const [window] = resolved(["recent-window"], {}, { ...fullPolicy, writeBack: false });
    expect(window).toEqual({
      name: "recent-window",
      description: "the built-in baseline recent-window",
      note: BASELINE_SYSTEMS["recent-window"].note,
      system: { type: "baseline", baseline: "recent-window" },
      info: { type: "baseline", baseline: "recent-window" },
      writeBack: false,
      files: [],
    });
  });

  it("refuses an unknown name in one message naming the file and the entry's path", () => {
    const message = refusal(["full-context", "recent-windw"]);
    expect(message).toBe(`${experimentFile}: at systems[1]: unknown system "recent-windw" (built in: recent-window, full-context; or give module: or command:)`);
    expect(message).not.toContain("\n");
  });

  it("finds a module from the experiment's folder, records it as written, and counts it among the system's files", () => {
    const [words] = resolved([{ name: "words", description: "shared words", module: "systems/words.ts", options: { share: 1 }, timeoutMs: 900, writeBack: false }]);
    expect(words).toEqual({
      name: "words",
      description: "the module systems/words.ts",
      note: "shared words",
      system: { type: "module", file: moduleFile, options: { share: 1 }, timeoutMs: 900 },
      info: { type: "module", module: "systems/words.ts", options: { share: 1 } },
      writeBack: false,
      files: [moduleFile],
    });
  });

  it("writes back to a module or command as the base policy does, unless its entry says", () => {
    const [module, command] = resolved([
      { name: "words", module: "systems/words.ts" },
      { name: "bm25", command: ["python3", "bm25_system.py"], writeBack: true },
    ], {}, { ...fullPolicy, writeBack: false });
    expect(module!.writeBack).toBe(false);
    expect(command!.writeBack).toBe(true);
  });

  it("refuses a module outside the experiment's folder unless the experiment allows it", () => {
    expect(refusal([{ name: "words", module: "../elsewhere/words.ts" }])).toBe(
      `${experimentFile}: at systems[0].module: "../elsewhere/words.ts" is outside the experiment file's folder; move it there, or set allowOutside: true to read it`,
    );
    const [allowed] = resolved([{ name: "words", module: "../elsewhere/words.ts" }], { allowOutside: true });
    expect(allowed!.system).toMatchObject({ type: "module", file: outsideModule });
  });

  it("refuses a module that is not there, or is a folder", () => {
    expect(refusal([{ name: "words", module: "systems/nope.ts" }])).toMatch(new RegExp(`^${experimentFile}: at systems\\[0\\]\\.module: system module "systems/nope.ts" not found`));
    expect(refusal([{ name: "words", module: "data" }])).toBe(`${experimentFile}: at systems[0].module: system module "data" is a folder, not a file`);
  });

  it("runs a command in the experiment's folder, and counts the scripts it names among the system's files", () => {
    const [bm25] = resolved([{ name: "bm25", command: ["python3", "bm25_system.py", "--k1", "1.2", "data"], options: { b: 0.75 } }]);
    expect(bm25).toEqual({
      name: "bm25",
      description: "a subprocess: python3 bm25_system.py --k1 1.2 data",
      system: { type: "command", name: "bm25", command: ["python3", "bm25_system.py", "--k1", "1.2", "data"], cwd: folder, options: { b: 0.75 }, timeoutMs: 30_000 },
      info: { type: "command", command: ["python3", "bm25_system.py", "--k1", "1.2", "data"], options: { b: 0.75 } },
      writeBack: fullPolicy.writeBack,
      // Not python3 (a program on PATH), not the flags, not a folder.
      files: [scriptFile],
    });
  });

  it("counts a script named by an absolute path, and a program given as a path in the folder", () => {
    expect(resolved([{ name: "bm25", command: ["python3", scriptFile] }])[0]!.files).toEqual([scriptFile]);
    expect(resolved([{ name: "server", command: ["./bin/memory-server", "--port", "0"] }])[0]!.files).toEqual([programFile]);
    expect(resolved([{ name: "node", command: [process.execPath, "--version"] }])[0]!.files).toEqual([]);
  });
});

describe("systemFileContents", () => {
  it("is each system's files' contents under its name, for the experiment's hash", () => {
    const systems = resolved(["full-context", { name: "words", module: "systems/words.ts" }, { name: "bm25", command: ["python3", "bm25_system.py"] }]);
    expect(systemFileContents(systems)).toEqual(["words:export default () => ({ async open() {} });\n", "bm25:print('bm25')\n"]);
  });
});

describe("systemBudget", () => {
  it("is, by default, the sum of the base policy's section quotas: what recollect's sections share", () => {
    const quotas = Object.values(fullPolicy.sections).map((s) => s.quota!);
    expect(systemBudget(spec([]), fullPolicy)).toBe(quotas.reduce((a, b) => a + b, 0));
    expect(systemBudget(spec([]), fullPolicy)).toBe(168);
  });

  it("is the pooled quota for a pooled base policy", () => {
    expect(systemBudget(spec([]), pooledPreset)).toBe(pooledPreset.pooled.quota);
  });

  it("is null when any quota is unbounded", () => {
    const unbounded: RetrievalPolicy = { ...fullPolicy, sections: { ...fullPolicy.sections, procedural: { ...fullPolicy.sections.procedural, quota: null } } };
    expect(systemBudget(spec([]), unbounded)).toBeNull();
    expect(systemBudget(spec([]), { ...pooledPreset, pooled: { ...pooledPreset.pooled, quota: null } })).toBeNull();
  });

  it("is the experiment's own budget when it sets one, null included", () => {
    expect(systemBudget(spec([], { budget: 512 }), fullPolicy)).toBe(512);
    expect(systemBudget(spec([], { budget: null }), fullPolicy)).toBeNull();
  });
});

import { describe, expect, it, vi } from "vitest";
import { buildCli, type Handlers } from "../../src/cli/app.js";
import { MAX_SHARDS } from "../../src/cli/shard.js";
import { RecollectError, UsageError } from "../../src/shared/errors.js";

/** Parses argv with handlers that only record how they were called, the way main.ts wires failures. */
async function parse(argv: string[]): Promise<{ command: keyof Handlers; args: unknown }[]> {
  const calls: { command: keyof Handlers; args: unknown }[] = [];
  const record =
    (command: keyof Handlers) =>
    async (args?: unknown): Promise<void> => {
      calls.push({ command, args });
    };
  const handlers: Handlers = {
    experiment: record("experiment"),
    check: record("check"),
    merge: record("merge"),
    demo: record("demo"),
    chat: record("chat"),
    record: record("record"),
    bench: record("bench"),
    convert: record("convert"),
  };
  await buildCli(argv, handlers)
    .exitProcess(false)
    .fail((message, error) => {
      throw error ?? new UsageError(message);
    })
    .parseAsync();
  return calls;
}

/** The help text of one command, as `recollect <command> --help` prints it. */
async function helpOf(command: string): Promise<string> {
  const noop = async () => {};
  const handlers = { experiment: noop, check: noop, merge: noop, demo: noop, chat: noop, record: noop, bench: noop, convert: noop };
  let text = "";
  await buildCli([], handlers)
    .exitProcess(false)
    .parseAsync([command, "--help"], {}, (_error, _argv, output) => {
      text = output;
    });
  return text;
}

async function parseError(argv: string[]): Promise<RecollectError> {
  const error = await parse(argv).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RecollectError);
  return error as RecollectError;
}

describe("the command line", () => {
  it("runs every experiment, resumably, on all cores by default, stopping when a system fails", async () => {
    expect(await parse(["experiment"])).toEqual([
      {
        command: "experiment",
        args: { files: [], workers: undefined, onSystemError: "stop", resume: true, shard: undefined, locomo: "data/locomo10.json", acceptLocomoHash: false },
      },
    ]);
  });

  it("passes experiment files and options through to the handler", async () => {
    const [call] = await parse([
      "experiment", "a.yaml", "b.yaml", "--workers", "2", "--no-resume", "--shard", "2/3", "--locomo", "x.json", "--accept-locomo-hash",
    ]);
    expect(call).toEqual({
      command: "experiment",
      args: { files: ["a.yaml", "b.yaml"], workers: 2, onSystemError: "stop", resume: false, shard: { index: 2, count: 3 }, locomo: "x.json", acceptLocomoHash: true },
    });
  });

  it("passes an output folder to experiment and check", async () => {
    const [run, check] = [await parse(["experiment", "mine.yaml", "--out", "results-here"]), await parse(["check", "mine.yaml", "--out", "results-here"])];
    expect(run[0].args).toMatchObject({ files: ["mine.yaml"], out: "results-here" });
    expect(check[0].args).toMatchObject({ files: ["mine.yaml"], out: "results-here" });
  });

  it("refuses --out naming a file rather than a folder", async () => {
    // Rejected while parsing, as yargs does with an option's check (main.ts prints it as one line, exit 2).
    const error = await parse(["experiment", "--out", "package.json"]).catch((e: unknown) => e);
    expect((error as Error).message).toBe("--out expects a folder, but package.json is a file");
  });

  it("converts LoCoMo to the conversation format, optionally keeping some categories", async () => {
    expect(await parse(["convert", "locomo", "in.json", "out.jsonl.gz", "--categories", "1", "2"])).toEqual([
      { command: "convert", args: { from: "locomo", input: "in.json", output: "out.jsonl.gz", categories: [1, 2] } },
    ]);
    expect((await parseError(["convert", "csv", "in.json", "out.jsonl"])).message).toMatch(/Invalid values:[\s\S]*from/);
  });

  it.each(["0/2", "3/2", "2", "a/b", "1/0", "1/99999999999999999999", "1/10001", "1.5/2"])("refuses --shard %s with one message", async (shard) => {
    expect((await parseError(["experiment", "--shard", shard])).message).toBe(`--shard expects i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, or auto, got "${shard}"`);
  });

  it(`takes --shard up to ${MAX_SHARDS} shards`, async () => {
    const parsed = await parse(["experiment", "--shard", `${MAX_SHARDS}/${MAX_SHARDS}`]);
    expect(parsed).toMatchObject([{ command: "experiment", args: { shard: { index: MAX_SHARDS, count: MAX_SHARDS } } }]);
  });

  it("refuses a single-valued flag given twice, and keeps every value of a list flag", async () => {
    const error = await parseError(["chat", "--message", "hi", "--message", "tea"]);
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe("--message is given 2 times; give it once");
    expect((await parseError(["experiment", "--embedding-cache", "a.db", "--embedding-cache", "b.db"])).message).toBe("--embedding-cache is given 2 times; give it once");
    expect(await parse(["convert", "locomo", "in.json", "out.jsonl", "--categories", "1", "--categories", "2"])).toMatchObject([{ command: "convert", args: { categories: [1, 2] } }]);
  });

  it("passes check's files and --update", async () => {
    expect(await parse(["check", "e.yaml", "--update", "--workers", "1"])).toEqual([
      { command: "check", args: { files: ["e.yaml"], workers: 1, onSystemError: "stop", update: true, locomo: "data/locomo10.json", acceptLocomoHash: false } },
    ]);
  });

  it("passes merge's shard files and --out, and needs at least one shard", async () => {
    expect(await parse(["merge", "s1.json", "s2.json", "--out", "m.json"])).toEqual([
      { command: "merge", args: { shards: ["s1.json", "s2.json"], out: "m.json" } },
    ]);
    await parseError(["merge"]);
  });

  it("runs the demo", async () => {
    expect(await parse(["demo"])).toEqual([{ command: "demo", args: undefined }]);
  });

  it("fills in the model commands' defaults", async () => {
    const [chat] = await parse(["chat", "--message", "hi"]);
    expect(chat.args).toMatchObject({ seed: false, model: "gemma4:e2b", timeoutMs: 120_000, message: "hi" });
    const [bench] = await parse(["bench", "--sizes", "10", "100"]);
    expect(bench.args).toEqual({ sizes: [10, 100], queries: 200, out: "reports/bench", grid: false, conversations: true, embeddingTexts: 200 });
    const [quick] = await parse(["bench", "--embedding-texts", "0"]);
    expect(quick.args).toMatchObject({ embeddingTexts: 0 });
  });

  it("shows the help, listing every command, when no command is given", async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
    try {
      expect(await parse([])).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    const help = written.join("");
    for (const command of ["experiment", "check", "merge", "demo", "chat", "record", "bench", "convert"]) expect(help).toContain(`recollect ${command}`);
  });

  it("describes every positional and option of every command in its help, with README's --no-resume", async () => {
    for (const command of ["experiment", "check", "merge", "demo", "chat", "record", "bench", "convert"]) {
      const help = await helpOf(command);
      // yargs prints each option or positional as "name  description  [type]" (the description may wrap).
      const entries = help.split("\n").filter((line) => /^\s+(-\w, )?--[\w-]+/.test(line) || /^ {2}\w+ {2,}/.test(line));
      expect(entries.length, command).toBeGreaterThan(1);
      for (const line of entries) {
        const description = line.replace(/^\s+(-\w, )?-*[\w-]+/, "").replace(/\[[^\]]*\]/g, "").trim();
        expect(description, `${command}: ${line}`).not.toBe("");
      }
    }
    expect(await helpOf("experiment")).toContain("--no-resume");
    expect(await helpOf("experiment")).not.toMatch(/--resume\b/);
  });

  it("refuses unknown commands and options rather than ignoring them", async () => {
    expect((await parseError(["experiments"])).message).toMatch(/Unknown argument.*experiments/);
    expect((await parseError(["experiment", "--wrokers", "2"])).message).toMatch(/Unknown argument.*wrokers/);
  });
});

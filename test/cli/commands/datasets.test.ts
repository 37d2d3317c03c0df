import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { datasetResolver, missingDataset } from "../../../src/cli/commands/datasets.js";
import { loadExperiments } from "../../../src/harness/experiment/load.js";
import { readResults } from "../../../src/harness/results/io.js";
import { conversation, writeBytes, writeJsonl } from "../../datasets/conversations/build.js";
import { fixtureSamples } from "../../datasets/locomo/fixture.js";
import { REPO_ROOT, useTempDir } from "../../harness/temp-files.js";
import { userError } from "../../helpers/user-error.js";
import { type CliOutcome, runCli } from "../sandbox.js";

/**
 * Conversation datasets through the command line's entry (src/cli/run.ts), run from the project's folder as a user
 * would: every repair shows in the import table, every bad input is one line and exit 2 with
 * nothing written, the project's tracked files never change, and a LoCoMo file converted to the
 * format ranks exactly as the LoCoMo importer does.
 */
const temp = useTempDir("recollect-datasets-");
const gitStatus = () => execFileSync("git", ["status", "--porcelain"], { cwd: REPO_ROOT, encoding: "utf8" });

/** An experiment in its own folder, over `data` (a file name in that folder). */
function experiment(folder: string, data: string, ...lines: string[]): string {
  return temp.write(
    `${folder}/experiment.yaml`,
    [`name: ${folder}`, "description: a dataset under test", `dataset: { format: conversations, path: ${data} }`, "ablations: [full, relevance-only]", "seeds: [1, 2]", ...lines].join("\n"),
  );
}

// ---- Repairs: one conversation per repair, so each example names its own conversation.

const repairs = (() => {
  const outOfOrder = conversation("out-of-order");
  outOfOrder.sessions.reverse();
  const emptyTurn = conversation("empty-turn");
  emptyTurn.sessions[0].turns.push({ id: "s1:3", speaker: "Melanie", text: "   " });
  const emptyObservation = conversation("empty-observation");
  emptyObservation.sessions[0].observations = [{ id: "s1:o1", text: "", source: ["s1:1"] }];
  const unknownSource = conversation("unknown-source");
  unknownSource.sessions[0].observations = [{ id: "s1:o1", text: "Caroline has a cat.", source: ["s1:1", "s7:7"] }];
  const unknownEvidence = conversation("unknown-evidence");
  unknownEvidence.questions[0].evidence = ["s1:1", "s9:9"];
  const duplicate = conversation("duplicate-evidence");
  duplicate.questions[0].evidence = ["s1:1", "s1:1"];
  const noEvidence = conversation("no-evidence");
  noEvidence.questions.push({ id: "q2", text: "Who called?", evidence: ["ghost"] });
  const early = conversation("early-ask");
  early.questions[0].askedAt = "2023-05-09T10:00:00+02:00";
  const noQuestion = conversation("no-question", { questions: [{ id: "q1", text: "Anything?", evidence: [] }] });
  return [outOfOrder, emptyTurn, emptyObservation, unknownSource, unknownEvidence, duplicate, noEvidence, early, noQuestion];
})();
writeJsonl(temp, "repairs/talks.jsonl.gz", repairs);
const repairsExperiment = experiment("repairs", "talks.jsonl.gz");
const repairsOut = temp.path("repairs-out");

/** Each repair's row in the import table: its count and the conversation its example names. */
const EXPECTED_ROWS: [string, string, string][] = [
  ["sessions dated before a session listed earlier", "1 in 1 conversation", "out-of-order s1"],
  ["empty turns", "1", "empty-turn s1:3"],
  ["empty observations", "1", "empty-observation s1:o1"],
  ["observation sources that name no imported turn", "1", 'unknown-source s1:o1: "s7:7"'],
  ["evidence ids that name no imported turn", "2", 'unknown-evidence q1: "s9:9"'],
  ["evidence ids listed twice in one question", "1", 'duplicate-evidence q1: "s1:1"'],
  ["questions left with no evidence", "2", "no-evidence q2"],
  ["askedAt earlier than the ask protocol allows", "1", "early-ask q1: 2023-05-09T10:00:00+02:00"],
  ["conversations left with no question", "1", "no-question"],
];

// ---- Bad input: each a folder of its own, so a file written by mistake would show whose it was.

interface Case {
  args: string[];
  /** The file the message names, and what it says after it. */
  names: string;
  says: RegExp;
  /** Where nothing may appear. */
  folder: string;
}
const CASES: Record<string, Case> = {};
function badData(title: string, folder: string, lines: (object | string)[] | Buffer, names: (data: string) => string, says: RegExp) {
  const data = Buffer.isBuffer(lines) ? writeBytes(temp, `${folder}/data.jsonl`, lines) : writeJsonl(temp, `${folder}/data.jsonl`, lines as never[]);
  const file = experiment(folder, "data.jsonl");
  CASES[title] = { args: ["experiment", file], names: names(data), says, folder: dirname(file) };
}
const line = (n: number) => (data: string) => `${data}:${n}`;
const c = conversation();

badData("a line that is not JSON", "not-json", [c, "{oops"], line(2), /^not valid JSON \(.+\)$/);
badData("a missing field", "missing-field", [{ ...c, questions: undefined }], line(1), /^at questions: .*expected array, received undefined$/);
badData(
  "a number where text belongs",
  "number-text",
  [{ ...c, sessions: [{ ...c.sessions[0], turns: [{ id: "s1:1", speaker: "Ann", text: 42 }] }] }],
  line(1),
  /^at sessions\[0\]\.turns\[0\]\.text: expected a string, but got the number 42; write it as a JSON string, e.g. "text": "42"$/,
);
badData(
  "a numeric category, in a JSON file, so the hint is JSON's",
  "number-category",
  [{ ...c, questions: [{ ...c.questions[0], category: 2 }] }],
  line(1),
  /^at questions\[0\]\.category: expected a string, but got the number 2; write it as a JSON string, e.g\. "category": "2"$/,
);
badData("a misspelt key", "unknown-key", [{ ...c, questions: [{ ...c.questions[0], askedat: "2023-06-01" }] }], line(1), /^at questions\[0\]: unknown key "askedat"$/);
badData(
  "a time without a timezone",
  "no-zone",
  [{ ...c, sessions: [{ ...c.sessions[0], date: "2023-05-08T13:56:00" }] }],
  line(1),
  /^at sessions\[0\]\.date: expected an ISO 8601 time with a timezone or a bare date/,
);
badData("a day not in the calendar", "bad-day", [{ ...c, sessions: [{ ...c.sessions[0], date: "2023-02-30" }] }], line(1), /^at sessions\[0\]\.date: not a day of the calendar$/);
badData(
  "a turn id used twice",
  "twice-turn",
  [{ ...c, sessions: [c.sessions[0], { ...c.sessions[1], turns: [{ id: "s1:1", speaker: "A", text: "again" }] }] }],
  line(1),
  /^at sessions\[1\]\.turns\[0\]\.id: id "s1:1" is already used at sessions\[0\]\.turns\[0\]$/,
);
badData("a conversation id used twice", "twice-conversation", [conversation("a"), conversation("a")], line(2), /^at id: conversation id "a" is already used on line 1$/);
badData("an id with a space", "bad-id", [conversation("conv 1")], line(1), /^at id: ids use letters, digits and _ \. : - \/ only$/);
badData("bytes that are not UTF-8", "latin1", Buffer.concat([Buffer.from(`${JSON.stringify(c)}\n{"id": "caf`), Buffer.from([0xe9]), Buffer.from('"}\n')]), line(2), /^not valid UTF-8$/);
badData("a damaged gzip file", "damaged-gzip", gzipSync(JSON.stringify(c).repeat(20)).subarray(0, 60), (data) => data, /^not a valid gzip file \(.+\)$/);
badData("an empty file", "empty", Buffer.alloc(0), (data) => data, /^holds no conversation \(expected one JSON object per line\)$/);
badData(
  "no question left to ask",
  "no-question",
  [conversation("a", { questions: [{ id: "q", text: "?", evidence: ["ghost"] }] })],
  (data) => data,
  /^no question is left to ask: none has evidence that names an imported turn$/,
);

function badExperiment(title: string, folder: string, lines: string[], says: RegExp, extra: string[] = []) {
  writeJsonl(temp, `${folder}/data.jsonl`, [c]);
  const file = temp.write(`${folder}/experiment.yaml`, [`name: ${folder}`, "description: a broken experiment", "ablations: [full]", "seeds: [1]", ...lines].join("\n"));
  CASES[title] = { args: ["experiment", file, ...extra], names: file, says, folder: dirname(file) };
}
writeJsonl(temp, "outside.jsonl", [c]);
badExperiment("a data file that is not there", "no-data", ["dataset: { format: conversations, path: nope.jsonl }"], /^at dataset\.path: data file "nope\.jsonl" not found \(paths are relative to the experiment file's folder, .+\/\)$/);
badExperiment("a data file outside the experiment's folder", "outside-data", ["dataset: { format: conversations, path: ../outside.jsonl }"], /^at dataset\.path: "\.\.\/outside\.jsonl" is outside the experiment file's folder; move it there, or set allowOutside: true to read it$/);
badExperiment("a folder as the data file", "folder-data", ["dataset: { format: conversations, path: . }"], /^at dataset\.path: data file "\." is a folder, not a file$/);
badExperiment("a scenario glob rooted at /", "root-glob", ['scenarios: ["/**/never-there.yaml"]', "allowOutside: true"], /^at scenarios\[0\]: "\/\*\*\/never-there\.yaml" would search the whole filesystem; name a folder before the first wildcard$/);
badExperiment("a scenario glob outside the experiment's folder", "outside-glob", ["scenarios: [../*/*.yaml]"], /^at scenarios\[0\]: "\.\.\/\*\/\*\.yaml" is outside the experiment file's folder/);
const unquoted = temp.write("unquoted/scenario.yaml", ["name: unquoted", "description: an unquoted id", "steps:", "  - remember: { id: 191e1832, kind: semantic, text: Tea }"].join("\n"));
CASES["an unquoted id that YAML reads as a number"] = {
  args: ["experiment", temp.write("unquoted/experiment.yaml", ["name: unquoted", "description: x", "scenarios: [scenario.yaml]", "ablations: [full]", "seeds: [1]"].join("\n"))],
  names: unquoted,
  says: /^at steps\[0\]\.remember\[0\]\.id: expected a string, but YAML reads 191e1832 as the number Infinity; quote it to keep it as text: id: "191e1832"$/,
  folder: dirname(unquoted),
};
badExperiment("--out naming a file", "out-file", ["dataset: { format: conversations, path: data.jsonl }"], /./, ["--out", temp.write("out-file/not-a-folder", "")]);
CASES["--out naming a file"].names = "";
CASES["--out naming a file"].says = /^--out expects a folder, but .*not-a-folder is a file$/;
CASES["converting a LoCoMo file that is not there"] = {
  args: ["convert", "locomo", temp.path("convert-missing/locomo10.json"), temp.path("convert-missing/out.jsonl")],
  names: temp.path("convert-missing/locomo10.json"),
  says: /^LoCoMo data file not found\. Download data\/locomo10\.json from the public snap-research\/LoCoMo repository/,
  folder: temp.path("convert-missing"),
};
// The converter's output would be written beside its input.
const notConverted = temp.path("convert-missing/out.jsonl");

// ---- A LoCoMo file converted to the format, run both ways.

const locomoFile = temp.write("convert/locomo10.json", JSON.stringify(fixtureSamples()));
const converted = temp.path("convert/locomo.jsonl.gz");
const viaLocomo = temp.write(
  "convert/via-locomo.yaml",
  ["name: via-locomo", "description: the LoCoMo importer", "dataset: { locomo: { categories: [1, 2, 3, 4] } }", "ablations: [full, relevance-only, pooled]", "seeds: [1, 2, 3]", "variation: { shuffle: true, importanceNoise: 1 }"].join("\n"),
);
const viaFormat = temp.write(
  "convert/via-format.yaml",
  [
    "name: via-format",
    "description: the converted file",
    'dataset: { format: conversations, path: locomo.jsonl.gz, categories: ["1 multi-hop", "2 temporal", "3 open-domain", "4 single-hop"] }',
    "ablations: [full, relevance-only, pooled]",
    "seeds: [1, 2, 3]",
    "variation: { shuffle: true, importanceNoise: 1 }",
  ].join("\n"),
);

let statusBefore: string;
const outcomes = new Map<string, CliOutcome>();
let repaired: CliOutcome;
let convert: CliOutcome;
let runs: CliOutcome[];

/** Runs the CLI for each argument list, one after another, in the project's folder. */
async function runAll(argLists: string[][]): Promise<CliOutcome[]> {
  const results: CliOutcome[] = [];
  for (const args of argLists) results.push(await runCli(args, REPO_ROOT));
  return results;
}

beforeAll(async () => {
  statusBefore = gitStatus();
  const titles = Object.keys(CASES);
  const results = await runAll(titles.map((title) => CASES[title].args));
  titles.forEach((title, i) => outcomes.set(title, results[i]));
  repaired = (await runAll([["experiment", repairsExperiment, "--out", repairsOut, "--workers", "1"]]))[0];
  convert = (await runAll([["convert", "locomo", locomoFile, converted]]))[0];
  runs = await runAll([
    ["experiment", viaLocomo, "--locomo", locomoFile, "--accept-locomo-hash", "--workers", "2"],
    ["experiment", viaFormat, "--workers", "1"],
  ]);
}, 600_000);

describe("a conversation dataset with data that needs repairs", () => {
  it("runs, and says on the command line what it repaired", () => {
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toMatch(/^repairs: imported 9 conversations \(turns: \d+, observations: \d+\), asking \d+ of \d+ questions in 8 scenarios; repaired sessions dated/m);
  });

  it.each(EXPECTED_ROWS)("lists %s in the import table: %s, with an example", (what, count, example) => {
    const evaluation = readFileSync(join(repairsOut, "EVALUATION.md"), "utf8");
    const row = evaluation.split("\n").find((l) => l.startsWith(`| ${what} `));
    expect(row, what).toBeDefined();
    const cells = row!.split("|").map((cell) => cell.trim());
    expect(cells[3]).toBe(count);
    expect(cells[4]).toContain(`\`${example}`);
  });
});

describe("a bad input", () => {
  describe.each(Object.keys(CASES))("%s", (title) => {
    it("exits 2 with one line naming the file and what is wrong, and writes nothing", () => {
      const { names, says, folder } = CASES[title];
      const outcome = outcomes.get(title)!;
      expect(outcome.code, outcome.stderr + outcome.stdout).toBe(2);
      const lines = outcome.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      const prefix = names === "" ? "recollect: " : `recollect: ${names}: `;
      expect(lines[0].startsWith(prefix), lines[0]).toBe(true);
      expect(lines[0].slice(prefix.length)).toMatch(says);
      expect(outcome.stdout).toBe("");
      expect(existsSync(notConverted)).toBe(false);
      expect(existsSync(join(folder, "recollect-out")), "an output folder was created").toBe(false);
      expect(existsSync(folder) ? readdirSync(folder).filter((f) => f.startsWith(".")) : []).toEqual([]);
    });
  });
});

describe("a LoCoMo file converted to the conversation format", () => {
  it("is written by npm run convert", () => {
    expect(convert.code, convert.stderr).toBe(0);
    expect(convert.stdout).toMatch(/^convert: wrote 2 conversations \(6 questions of categories 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial\)/);
    expect(existsSync(converted)).toBe(true);
  });

  it("ranks every ask of every trial exactly as the LoCoMo importer does", () => {
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const [a, b] = ["via-locomo", "via-format"].map((name) => readResults(temp.path(`convert/recollect-out/results/${name}.json`))!);
    expect(b.trials.length).toBe(18);
    expect(b.trials).toEqual(a.trials);
    expect(b.experiment.scenarios.map((s) => s.asks)).toEqual(a.experiment.scenarios.map((s) => s.asks));
  });
});

describe("missingDataset", () => {
  const data = { locomo: temp.path("no-locomo10.json"), acceptLocomoHash: false };
  const skipping = (folder: string, path: string) => experiment(folder, path);

  it("says an absent data file inside the experiment's folder is absent, so an experiment nobody named can be skipped", () => {
    expect(missingDataset(skipping("absent-inside", "talks.jsonl"), data)).toBe("its data file talks.jsonl is absent");
    expect(missingDataset(skipping("present-inside", "data.jsonl"), data)).toBe("its data file data.jsonl is absent");
    writeJsonl(temp, "present-inside/data.jsonl", [c]);
    expect(missingDataset(skipping("present-inside", "data.jsonl"), data)).toBeUndefined();
  });

  it("refuses a data file outside the experiment's folder as `experiment` does, whether or not it exists", async () => {
    for (const path of ["../outside.jsonl", "../never-there.jsonl"]) {
      const file = skipping(`outside-${path.length}`, path);
      const refusal = (await loadExperiments(file, datasetResolver(data)).then(
        () => new Error("loaded"),
        (error: unknown) => error,
      )) as Error;
      expect(refusal.message).toBe(`${file}: at dataset.path: "${path}" is outside the experiment file's folder; move it there, or set allowOutside: true to read it`);
      expect(userError(() => missingDataset(file, data)).message).toBe(refusal.message);
    }
  });
});

describe("running users' experiments and their mistakes", () => {
  it("leaves the project's tracked files as they were", () => {
    expect(gitStatus()).toBe(statusBefore);
  });
});

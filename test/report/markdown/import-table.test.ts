import { describe, expect, it } from "vitest";
import { countRepair, emptyImportStats, REPAIRS } from "../../../src/datasets/conversations/stats.js";
import { summarise } from "../../../src/harness/summary/summarise.js";
import { importSection } from "../../../src/report/markdown/import-table.js";
import { syntheticResults } from "../../fixtures/synthetic-results.js";

function view(importStats: Record<string, unknown> | undefined) {
  const base = syntheticResults();
  const results = {
    ...base,
    experiment: { ...base.experiment, ...(importStats ? { importStats } : {}) },
    manifest: { ...base.manifest, datasets: [{ name: "talks.jsonl (conversation JSON Lines)", sha256: "ab", path: "data/talks.jsonl" }] },
  };
  return { results, summary: summarise(results, { seed: 1 }) };
}

function stats() {
  const s = { ...emptyImportStats(), conversations: 3, scenarios: 2, sessions: 7, turns: 40, observations: 1, questions: 4, asked: 3, notChosen: 2 };
  s.categories = { temporal: { questions: 1, asked: 1 }, "multi-hop": { questions: 3, asked: 2 } };
  countRepair(s, "sessionsOutOfOrder", "c1 s2: 2024-01-01");
  s.conversationsOutOfOrder = 1;
  countRepair(s, "unknownEvidence", 'c2 q1: "s9:9"');
  countRepair(s, "unknownEvidence", 'c3 q4: "x"');
  return s;
}

describe("the import table of EVALUATION.md", () => {
  it("is empty for an experiment whose scenarios did not come from conversations", () => {
    expect(importSection(undefined, view(undefined))).toBe("");
    expect(importSection(undefined, view({ conversations: "not stats" }))).toBe("");
  });

  it("says what was read, imported and asked, naming the data file by its path", () => {
    const text = importSection(undefined, view(stats()));
    expect(text).toContain(
      "From `data/talks.jsonl`: read 3 conversations with 7 sessions, and imported 40 turns (episodic memories) and 1 observation " +
        "(semantic memories). Of 4 questions of the chosen categories (2 others were left out), 3 were asked, in 2 scenarios",
    );
  });

  it("lists each repair done with its count and examples, and names every check that found nothing in one sentence", () => {
    const text = importSection(undefined, view(stats()));
    const rows = text.split("\n").filter((line) => REPAIRS.some((r) => line.startsWith(`| ${r.what} `)));
    expect(rows).toHaveLength(2);
    const cells = (what: string) => rows.find((row) => row.startsWith(`| ${what} `))!.split("|").map((c) => c.trim());
    expect(cells("sessions dated before a session listed earlier").slice(3, 5)).toEqual(["1 in 1 conversation", "`c1 s2: 2024-01-01`"]);
    expect(cells("evidence ids that name no imported turn").slice(3, 5)).toEqual(["2", '`c2 q1: "s9:9"`, `c3 q4: "x"`']);
    const unneeded = REPAIRS.filter((r) => !["sessionsOutOfOrder", "unknownEvidence", "malformedEvidence"].includes(r.key)).map((r) => r.what);
    expect(text).toContain(`Checked and not needed: ${unneeded.join("; ")}.`);
  });

  it("lists evidence that is not an id only when some was, as a row of its own", () => {
    const needed = stats();
    countRepair(needed, "malformedEvidence", 'c2 q2: "D1:11; D3:18"');
    const malformed = REPAIRS.find((r) => r.key === "malformedEvidence")!.what;
    const row = importSection(undefined, view(needed)).split("\n").find((line) => line.startsWith(`| ${malformed} `))!;
    expect(row.split("|").map((c) => c.trim()).slice(3, 5)).toEqual(["1", '`c2 q2: "D1:11; D3:18"`']);
    expect(importSection(undefined, view(stats()))).not.toContain(malformed);
  });

  it("says when no repair was needed, still naming every check", () => {
    const clean = { ...stats(), repairs: { ...emptyImportStats().repairs }, conversationsOutOfOrder: 0 };
    const text = importSection(undefined, view(clean));
    expect(text).not.toContain("| Repair ");
    expect(text).toContain(`No repair was needed; checked: ${REPAIRS.filter((r) => r.key !== "malformedEvidence").map((r) => r.what).join("; ")}.`);
  });

  it("breaks the questions down by category, in name order", () => {
    const text = importSection(undefined, view(stats()));
    expect(text).toMatch(/\| multi-hop +\| +3 \| +2 \|\n\| temporal +\| +1 \| +1 \|/);
  });
});

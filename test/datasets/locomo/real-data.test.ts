import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LOCOMO_PATH, loadLocomo, LOCOMO_SHA256, toScenarios } from "../../../src/datasets/locomo/index.js";
import type { LocomoSample, LocomoScenarios } from "../../../src/datasets/locomo/index.js";
import { experimentSchema } from "../../../src/harness/experiment/schema.js";
import { loadYaml } from "../../../src/harness/files/load-yaml.js";
import { buildTimeline } from "../../../src/harness/scenario/timeline.js";
import { asksOf, expectPlayable, memoriesOf } from "./invariants.js";

/**
 * Acceptance on the published file (snap-research/LoCoMo, data/locomo10.json). It is not in the
 * repository (CC BY-NC), so these tests run only where it has been placed at the default path.
 */
const path = fileURLToPath(new URL(`../../../${DEFAULT_LOCOMO_PATH}`, import.meta.url));

interface RawTurn {
  dia_id: string;
  text: string;
  blip_caption?: string;
  query?: string;
}
interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { evidence: string[]; category: number }[];
  observation: Record<string, Record<string, [string, unknown][]>>;
}

describe.skipIf(!existsSync(path))("the published LoCoMo file", () => {
  let raw: RawSample[];
  let samples: LocomoSample[];
  let imported: LocomoScenarios;

  beforeAll(() => {
    // Read independently of the importer, to check it against the file itself.
    raw = JSON.parse(readFileSync(path, "utf8"));
    const loaded = loadLocomo(path);
    expect(loaded.sha256).toBe(LOCOMO_SHA256);
    samples = loaded.samples;
    imported = toScenarios(samples);
  });

  const rawTurns = (sample: RawSample): RawTurn[] =>
    Object.entries(sample.conversation)
      .filter(([key]) => /^session_\d+$/.test(key))
      .flatMap(([, turns]) => turns as RawTurn[]);

  it("played with experiments/locomo.yaml's variation (no importance noise declared), gives every memory of a trial the same importance", () => {
    const spec = loadYaml(fileURLToPath(new URL("../../../experiments/locomo.yaml", import.meta.url)), experimentSchema);
    for (const seed of spec.seeds.slice(0, 2)) {
      const importances = new Set(
        buildTimeline(imported.scenarios[0], seed, spec.variation).flatMap((e) => (e.type === "remember" ? e.memories.map((m) => m.importance) : [])),
      );
      expect([...importances]).toEqual([5]);
    }
  });

  it("has 10 conversations, 272 sessions and 5,882 turns, in date order, with no repeated turn id", () => {
    const { stats, conversion } = imported;
    expect([stats.conversations, stats.sessions, stats.turns]).toEqual([10, 272, 5882]);
    expect(imported.scenarios.map((s) => s.name)).toEqual(raw.map((s) => `locomo-${s.sample_id}`));
    expect(conversion.duplicateTurnIds).toBe(0);
    expect(stats.repairs.sessionsOutOfOrder).toBe(0);
    expect(stats.repairs.emptyTurns).toBe(0);
  });

  it("has 1,540 questions in categories 1–4: 282 multi-hop, 321 temporal, 96 open-domain, 841 single-hop", () => {
    const questions = (stats: { categories: Record<string, { questions: number }> }) =>
      Object.fromEntries(Object.entries(stats.categories).map(([category, c]) => [category, c.questions]));
    expect(questions(imported.stats)).toEqual({
      "1 multi-hop": 282,
      "2 temporal": 321,
      "3 open-domain": 96,
      "4 single-hop": 841,
    });
    expect(questions(toScenarios(samples, { categories: [5] }).stats)).toEqual({ "5 adversarial": 446 });
  });

  it("asks the 1,536 questions with a valid evidence id after repairing malformed ones", () => {
    const { stats, conversion } = imported;
    console.info(
      `LoCoMo 1–4: ${stats.asked} answerable, ${stats.repairs.questionsWithoutEvidence} without evidence, ` +
        `${stats.repairs.unknownEvidence} evidence ids dropped: ${stats.examples.unknownEvidence?.join("; ")}; ` +
        `${conversion.evidenceRewritten} evidence strings rewritten`,
    );
    expect(stats.asked).toBe(1536);
    expect(Object.fromEntries(Object.entries(stats.categories).map(([category, c]) => [category, c.asked]))).toEqual({
      "1 multi-hop": 282,
      "2 temporal": 321,
      "3 open-domain": 92,
      "4 single-hop": 841,
    });
    expect(stats.repairs.questionsWithoutEvidence).toBe(4);
    expect(stats.repairs.unknownEvidence).toBe(4);
    expect(stats.examples.unknownEvidence).toEqual([
      'locomo-conv-42 q58: "D10:19"',
      'locomo-conv-42 q88: "D"',
      'locomo-conv-43 q18: "D:11:26"',
      'locomo-conv-47 q38: "D4:36"',
    ]);
    // conv-50 q5 names D4:5 twice.
    expect(stats.repairs.duplicateEvidence).toBe(1);
  });

  it("recovers exactly the five questions whose only evidence was malformed (1,531 match without repair)", () => {
    let exact = 0;
    for (const sample of raw) {
      const ids = new Set(rawTurns(sample).map((turn) => turn.dia_id));
      exact += sample.qa.filter((qa) => qa.category <= 4 && qa.evidence.some((e) => ids.has(e))).length;
    }
    expect(exact).toBe(1531);
    expect(imported.stats.asked - exact).toBe(5);
  });

  it("produces scenarios the runner can play", () => {
    for (const scenario of imported.scenarios) expectPlayable(scenario);
    expect(imported.scenarios.flatMap(asksOf)).toHaveLength(imported.stats.asked);
  });

  it("imports every observation as a semantic memory citing real turns", () => {
    const expected = raw.reduce(
      (n, s) => n + Object.values(s.observation).flatMap((bySpeaker) => Object.values(bySpeaker).flat()).length,
      0,
    );
    expect(imported.stats.observations).toBe(expected);
    expect(imported.stats.repairs.unknownObservationSources).toBe(0);
    expect(imported.conversion.observationsWithoutSession).toBe(0);
    const semantic = imported.scenarios.flatMap(memoriesOf).filter((m) => m.kind === "semantic");
    expect(semantic).toHaveLength(expected);
    expect(semantic.every((m) => m.source !== undefined)).toBe(true);
  });

  it("appends image captions and never adds an image query to memory text", () => {
    let captioned = 0;
    raw.forEach((sample, i) => {
      const turns = rawTurns(sample);
      const texts = memoriesOf(imported.scenarios[i]).map((m) => m.text);
      const byId = new Map(memoriesOf(imported.scenarios[i]).map((m) => [m.id, m.text]));
      for (const turn of turns) {
        if (turn.blip_caption === undefined) continue;
        captioned += 1;
        expect(byId.get(turn.dia_id)).toContain(`[image: ${turn.blip_caption.trim()}]`);
      }
      // A query may legitimately occur in some text or caption; the import must not add any occurrence.
      const sources = [
        ...turns.map((turn) => `${turn.text} ${turn.blip_caption ?? ""}`),
        ...Object.values(sample.observation).flatMap((bySpeaker) => Object.values(bySpeaker).flat().map(([fact]) => fact)),
      ];
      for (const { query } of turns) {
        if (query === undefined) continue;
        const inMemory = texts.filter((text) => text.includes(query)).length;
        const inSources = sources.filter((text) => text.includes(query)).length;
        expect(inMemory, `query ${JSON.stringify(query)}`).toBe(inSources);
      }
    });
    expect(captioned).toBeGreaterThan(0);
  });

  it("spans 166 to 293 days per conversation", () => {
    const days = samples.map((s) => Math.floor((s.sessions.at(-1)!.time - s.sessions[0].time) / 86_400_000));
    expect(Math.min(...days)).toBe(166);
    expect(Math.max(...days)).toBe(293);
  });
});

/**
 * The per-kind retrieval demo: one user's memories in a temporary SQLite file — three facts (one
 * later corrected), three dated past episodes and three working notes for a trip being planned —
 * and two questions, each retrieved once per kind and once pooled under the same total token
 * budget. It reports which required memories reach each block, and that the corrected fact never
 * does. The clock is virtual, so the output is the same on every run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Block,
  loadGemmaTokenizer,
  type NewMemory,
  openStore,
  perKindPreset,
  pooledPreset,
  type RetrievalPolicy,
  retrieve,
} from "../../memory/index.js";

const SCOPE = "ana";
const day = (iso: string) => Date.parse(`${iso}T09:00:00Z`);
const NOW = day("2024-06-10");

const MEMORIES: NewMemory[] = ([
  { id: "fact-diet", kind: "semantic", text: "Ana is vegetarian.", createdAt: day("2024-01-05") },
  { id: "fact-budget-old", kind: "semantic", text: "Ana's hotel budget is 90 euros a night.", createdAt: day("2024-01-05") },
  { id: "fact-quiet", kind: "semantic", text: "Ana wants a quiet hotel room.", createdAt: day("2024-02-11") },
  {
    id: "ep-porto",
    kind: "episodic",
    text: "Ana stayed at a hotel in Porto near the river; the hotel was fine and the Porto trip went well.",
    createdAt: day("2024-03-04"),
    occurredAt: day("2024-03-02"),
  },
  {
    id: "ep-madrid",
    kind: "episodic",
    text: "Ana booked a hotel in Madrid for a conference; the Madrid hotel had a gym and a late dinner menu.",
    createdAt: day("2024-04-16"),
    occurredAt: day("2024-04-14"),
  },
  {
    id: "ep-lisbon",
    kind: "episodic",
    text: "Ana ate dinner in Lisbon at a vegetarian place in Alfama and loved it.",
    createdAt: day("2024-05-22"),
    occurredAt: day("2024-05-20"),
  },
  { id: "note-dates", kind: "working", text: "Trip: 12 to 16 June.", createdAt: day("2024-06-09") },
  { id: "note-area", kind: "working", text: "Stay near Alfama.", createdAt: day("2024-06-09") + 60_000 },
  { id: "note-dinner", kind: "working", text: "Book one dinner for 13 June.", createdAt: day("2024-06-09") + 120_000 },
] satisfies Omit<NewMemory, "scope">[]).map((m) => ({ ...m, scope: SCOPE }));

const CORRECTION: NewMemory = {
  id: "fact-budget",
  scope: SCOPE,
  kind: "semantic",
  text: "Ana's hotel budget is now 120 euros a night.",
  createdAt: day("2024-05-30"),
};

const QUESTIONS = [
  {
    text: "Which hotel in Lisbon should Ana book for the trip?",
    required: ["fact-budget", "fact-quiet", "note-dates", "note-area"],
  },
  {
    text: "Where should Ana have dinner in Lisbon on the trip?",
    required: ["fact-diet", "note-dinner", "ep-lisbon"],
  },
];

const CORRECTED = "fact-budget-old";

export async function runDemo(): Promise<string> {
  const tokenizer = await loadGemmaTokenizer();
  const dir = mkdtempSync(join(tmpdir(), "recollect-demo-"));
  const out: string[] = [];
  const say = (line = "") => out.push(line);
  try {
    const store = openStore(join(dir, "memory.sqlite"), { tokenizer });
    try {
      store.rememberMany(MEMORIES);
      store.correct(CORRECTED, CORRECTION);

      say("recollect demo: per-kind retrieval against one pooled ranking");
      say(`Clock: ${new Date(NOW).toISOString()} (virtual). Store: a temporary SQLite file.`);
      say();
      say(`Memories of "${SCOPE}":`);
      for (const m of [...MEMORIES, CORRECTION]) {
        const stored = store.get(SCOPE, m.id as string)!;
        const when = stored.occurredAt === null ? "" : ` [${new Date(stored.occurredAt).toISOString().slice(0, 10)}]`;
        const status = m.id === CORRECTED ? ` (corrected by ${CORRECTION.id})` : "";
        say(`  ${pad(stored.id, 16)}${pad(stored.kind, 10)}${pad(`${stored.tokens} tok`, 8)}${stored.text}${when}${status}`);
      }

      const totals = { perKind: [0, 0], pooled: [0, 0] };
      for (const [i, question] of QUESTIONS.entries()) {
        say();
        say(`Question ${i + 1}: ${question.text}`);
        say(`  required: ${question.required.join(", ")}`);
        for (const [label, key, policy] of [
          ["per-kind (perKindPreset)", "perKind", perKindPreset],
          ["pooled (pooledPreset)", "pooled", pooledPreset],
        ] as const) {
          // Locating every memory ranks each candidate, so the demo can list all that were dropped.
          const locate = [...MEMORIES, CORRECTION].map((m) => m.id as string);
          const block = retrieve(store, { scope: SCOPE, query: { text: question.text }, now: NOW, policy: policy as RetrievalPolicy, locate });
          const reached = question.required.filter((id) => inBlock(block, id));
          const missing = question.required.filter((id) => !inBlock(block, id));
          totals[key][0] += reached.length;
          totals[key][1] += question.required.length;
          say();
          say(`  ${label}`);
          for (const section of block.sections) {
            if (section.ranked.length === 0 && section.kept.length === 0) continue;
            say(
              `    ${pad(section.name, 11)}${pad(`${section.tokensUsed}/${section.quota ?? "∞"} tok`, 12)}` +
                `kept: ${list(section.kept)}; dropped: ${list(section.dropped)}`,
            );
          }
          say("    block:");
          for (const line of block.text.split("\n")) say(`      ${line}`);
          say(`    required reached: ${reached.length}/${question.required.length}${missing.length ? ` (missing: ${missing.join(", ")})` : ""}`);
          say(`    corrected fact ${CORRECTED}: ${inBlock(block, CORRECTED) ? "PRESENT" : "absent"}`);
        }
      }
      say();
      say(`Summary: per-kind reached ${totals.perKind[0]}/${totals.perKind[1]} required memories, pooled ${totals.pooled[0]}/${totals.pooled[1]}, at the same total token budget.`);
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return `${out.join("\n")}\n`;
}

function inBlock(block: Block, id: string): boolean {
  return block.sections.some((s) => s.kept.includes(id));
}

function list(ids: readonly string[]): string {
  return ids.length === 0 ? "-" : ids.join(", ");
}

function pad(text: string, width: number): string {
  return text.length >= width ? `${text} ` : text.padEnd(width);
}

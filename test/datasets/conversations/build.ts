import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { gzipSync } from "node:zlib";
import type { ConversationInput } from "../../../src/datasets/conversations/write.js";
import type { TempDir } from "../../harness/temp-files.js";

/**
 * A small valid conversation: two sessions a week apart, a question about the first. Tests
 * change what they are about and leave the rest valid.
 */
export function conversation(id = "conv-1", overrides: Partial<ConversationInput> = {}): ConversationInput {
  return {
    id,
    sessions: [
      {
        id: "s1",
        date: "2023-05-08T13:56:00Z",
        turns: [
          { id: "s1:1", speaker: "Caroline", text: "I adopted a cat named Miso." },
          { id: "s1:2", speaker: "Melanie", text: "Lovely! Send photos." },
        ],
        observations: [{ id: "s1:o1", text: "Caroline has a cat named Miso.", source: ["s1:1"] }],
      },
      { id: "s2", date: "2023-05-15", turns: [{ id: "s2:1", speaker: "Melanie", text: "I am off to Lisbon." }] },
    ],
    questions: [{ id: "q1", text: "What is Caroline's cat called?", evidence: ["s1:1"], category: "single-hop", answer: "Miso" }],
    ...overrides,
  };
}

/** Writes lines (objects are JSON-encoded) as a .jsonl file, gzip-compressed when the name ends in .gz; returns its path. */
export function writeJsonl(temp: TempDir, name: string, lines: (ConversationInput | string)[]): string {
  const text = `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`;
  return writeBytes(temp, name, name.endsWith(".gz") ? gzipSync(text) : Buffer.from(text));
}

export function writeBytes(temp: TempDir, name: string, bytes: Buffer): string {
  const path = temp.path(name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
  return path;
}

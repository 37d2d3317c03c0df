import { randomUUID } from "node:crypto";
import type { TokenCounter } from "../../memory/index.js";
import type { ScenarioSpec } from "../scenario/schema.js";
import { pricedLines } from "./priced-lines.js";
import { tableCounter } from "./token-counts.js";

/**
 * Scenarios cross to the worker threads once, not once per trial: they are serialised into one
 * SharedArrayBuffer that every task refers to, with the token count of every line their trials
 * price and, for trials that rank by embedding, each text's vector under each model they use
 * (float32, read in place). A worker decodes a scenario the first time a task names it and keeps
 * the last few, and trials run in scenario order, so a conversation of a large benchmark is
 * decoded about once per worker whatever the number of ablations and seeds.
 */

/** Where a scenario lies in the shared buffer. Plain data: it crosses to workers with each task. */
export interface ScenarioRef {
  /** Identifies one packing, so a worker's cache never serves a scenario of another run. */
  pack: string;
  name: string;
  buffer: SharedArrayBuffer;
  offset: number;
  length: number;
  /** Where the pack's vectors start in the buffer, in bytes. */
  vectorOffset: number;
}

interface Payload {
  spec: ScenarioSpec;
  /** Whether the lines include written-back questions (some trial of it writes back). */
  writeBack: boolean;
  /** Token counts of pricedLines(spec, writeBack), in that order. */
  counts: number[];
  /** Per model: the texts, their vectors' dimension, and where their floats start (in floats, from the ref's vectorOffset). */
  vectors: { model: string; texts: string[]; dim: number; start: number }[];
}

/** A scenario's vectors: per model, each text's. */
export type VectorTables = ReadonlyMap<string, ReadonlyMap<string, Float32Array>>;

export interface Unpacked {
  spec: ScenarioSpec;
  tokens: TokenCounter;
  vectors: VectorTables;
}

export interface PackEntry {
  spec: ScenarioSpec;
  writeBack: boolean;
  /** Per model, the vector of every text its trials embed. */
  vectors?: VectorTables;
}

/** Packs each scenario with its lines' counts and vectors; `counter` should count each distinct text once. */
export function packScenarios(entries: PackEntry[], counter: TokenCounter): Map<string, ScenarioRef> {
  let floats = 0;
  const encoded = entries.map(({ spec, writeBack, vectors }) => {
    const tables = [...(vectors ?? new Map<string, ReadonlyMap<string, Float32Array>>())].map(([model, table]) => {
      const texts = [...table.keys()];
      const dim = texts.length === 0 ? 0 : table.get(texts[0]!)!.length;
      const entry = { model, texts, dim, start: floats, rows: texts.map((t) => table.get(t)!) };
      floats += texts.length * dim;
      return entry;
    });
    const payload: Payload = {
      spec,
      writeBack,
      counts: pricedLines(spec, writeBack).map((line) => counter.count(line)),
      vectors: tables.map(({ model, texts, dim, start }) => ({ model, texts, dim, start })),
    };
    return { name: spec.name, bytes: Buffer.from(JSON.stringify(payload)), tables };
  });
  const textBytes = encoded.reduce((sum, e) => sum + e.bytes.length, 0);
  // Floats go after the text, at a multiple of 4 bytes so a Float32Array can view them in place.
  const vectorOffset = Math.ceil(textBytes / 4) * 4;
  const buffer = new SharedArrayBuffer(vectorOffset + floats * 4);
  const view = new Uint8Array(buffer);
  const all = new Float32Array(buffer, vectorOffset, floats);
  const pack = randomUUID();
  const refs = new Map<string, ScenarioRef>();
  let offset = 0;
  for (const { name, bytes, tables } of encoded) {
    view.set(bytes, offset);
    for (const table of tables) table.rows.forEach((row, i) => all.set(row, table.start + i * table.dim));
    refs.set(name, { pack, name, buffer, offset, length: bytes.length, vectorOffset });
    offset += bytes.length;
  }
  return refs;
}

/** Decoded scenarios of the current pack, the most recently used last. */
export class ScenarioCache {
  private pack: string | undefined;
  private readonly entries = new Map<string, Unpacked>();

  constructor(private readonly capacity = 4) {}

  get(ref: ScenarioRef): Unpacked {
    if (ref.pack !== this.pack) {
      this.pack = ref.pack;
      this.entries.clear();
    }
    let entry = this.entries.get(ref.name);
    if (entry === undefined) {
      entry = unpack(ref);
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    } else {
      this.entries.delete(ref.name);
    }
    this.entries.set(ref.name, entry);
    return entry;
  }
}

function unpack(ref: ScenarioRef): Unpacked {
  const payload = JSON.parse(Buffer.from(ref.buffer, ref.offset, ref.length).toString("utf8")) as Payload;
  const vectors = new Map<string, Map<string, Float32Array>>();
  for (const { model, texts, dim, start } of payload.vectors) {
    vectors.set(model, new Map(texts.map((text, i) => [text, new Float32Array(ref.buffer, ref.vectorOffset + (start + i * dim) * 4, dim)])));
  }
  return { spec: payload.spec, tokens: tableCounter(pricedLines(payload.spec, payload.writeBack), payload.counts), vectors };
}

import { randomUUID } from "node:crypto";
import type { TokenCounter } from "../../memory/index.js";
import type { ScenarioSpec } from "../scenario/schema.js";
import { pricedLines } from "./priced-lines.js";
import { tableCounter } from "./token-counts.js";

/**
 * Scenarios cross to the worker threads once, not once per trial: they are serialised into one
 * SharedArrayBuffer that every task refers to, with the token count of every line their trials
 * price. A worker decodes a scenario the first time a task names it and keeps the last few, and
 * trials run in scenario order, so a conversation of a large benchmark is decoded about once per
 * worker whatever the number of ablations and seeds.
 */

/** Where a scenario lies in the shared buffer. Plain data: it crosses to workers with each task. */
export interface ScenarioRef {
  /** Identifies one packing, so a worker's cache never serves a scenario of another run. */
  pack: string;
  name: string;
  buffer: SharedArrayBuffer;
  offset: number;
  length: number;
}

interface Payload {
  spec: ScenarioSpec;
  /** Whether the lines include written-back questions (some trial of it writes back). */
  writeBack: boolean;
  /** Token counts of pricedLines(spec, writeBack), in that order. */
  counts: number[];
}

export interface Unpacked {
  spec: ScenarioSpec;
  tokens: TokenCounter;
}

/** Packs each scenario with its lines' counts; `counter` should count each distinct text once. */
export function packScenarios(entries: { spec: ScenarioSpec; writeBack: boolean }[], counter: TokenCounter): Map<string, ScenarioRef> {
  const encoded = entries.map(({ spec, writeBack }) => {
    const payload: Payload = { spec, writeBack, counts: pricedLines(spec, writeBack).map((line) => counter.count(line)) };
    return { name: spec.name, bytes: Buffer.from(JSON.stringify(payload)) };
  });
  const buffer = new SharedArrayBuffer(encoded.reduce((sum, e) => sum + e.bytes.length, 0));
  const view = new Uint8Array(buffer);
  const pack = randomUUID();
  const refs = new Map<string, ScenarioRef>();
  let offset = 0;
  for (const { name, bytes } of encoded) {
    view.set(bytes, offset);
    refs.set(name, { pack, name, buffer, offset, length: bytes.length });
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
  return { spec: payload.spec, tokens: tableCounter(pricedLines(payload.spec, payload.writeBack), payload.counts) };
}

/**
 * Where a trial's vectors come from, handed to recollect as its embedding source. A scenario that
 * writes vectors out literally (scenarios about the embedding backend do) is ranked by its own:
 * each memory's by id, each question's by its text, as the timeline reaches them, and anything
 * without one (a written-back question) has none. Any other scenario is ranked by the trial's
 * embedding model, whose vector of every text the run embedded before the trials began.
 */
import type { NewMemory } from "../../memory/index.js";
import { SCENARIO_VECTOR_MODEL } from "../scenario/timeline.js";
import type { Embedding, EmbeddingSource } from "../systems/recollect.js";

export class ScenarioVectors implements EmbeddingSource {
  private readonly memories = new Map<string, Embedding>();
  private readonly queries = new Map<string, Embedding>();

  /**
   * `literal`: the scenario writes its own vectors. `model` and `table`: the trial's embedding
   * model and its vector of each text, for a scenario that does not.
   */
  constructor(
    private readonly literal: boolean,
    private readonly model?: { id: string; table: ReadonlyMap<string, Float32Array> },
  ) {}

  recordMemories(memories: readonly NewMemory[]): void {
    for (const m of memories) if (m.id !== undefined && m.embedding) this.memories.set(m.id, m.embedding);
  }

  recordQuery(text: string, vector: readonly number[] | undefined): void {
    if (vector !== undefined) this.queries.set(text, { model: SCENARIO_VECTOR_MODEL, vector });
  }

  memory(memory: { id: string; text: string }): Embedding | null {
    if (this.literal || this.model === undefined) return this.memories.get(memory.id) ?? null;
    return { model: this.model.id, vector: this.vectorOf(memory.text) };
  }

  query(text: string): Embedding | undefined {
    if (this.literal || this.model === undefined) return this.queries.get(text);
    return { model: this.model.id, vector: this.vectorOf(text) };
  }

  private vectorOf(text: string): Float32Array {
    const vector = this.model!.table.get(text);
    // The run embeds every text a trial can write or ask before it starts (see embeddedTexts).
    if (vector === undefined) throw new Error(`no ${this.model!.id} vector was prepared for the text ${JSON.stringify(text.slice(0, 80))}; embeddedTexts() misses a text the trial embeds`);
    return vector;
  }
}

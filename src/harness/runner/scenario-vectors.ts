/**
 * The vectors a scenario writes out literally (scenarios about the embedding backend do), handed
 * to recollect as its embedding source: each memory's by id, each question's by its text, recorded
 * by the runner as the timeline reaches them.
 */
import type { NewMemory } from "../../memory/index.js";
import { SCENARIO_VECTOR_MODEL } from "../scenario/timeline.js";
import type { Embedding, EmbeddingSource } from "../systems/recollect.js";

export class ScenarioVectors implements EmbeddingSource {
  private readonly memories = new Map<string, Embedding>();
  private readonly queries = new Map<string, Embedding>();

  recordMemories(memories: readonly NewMemory[]): void {
    for (const m of memories) if (m.id !== undefined && m.embedding) this.memories.set(m.id, m.embedding);
  }

  recordQuery(text: string, vector: readonly number[] | undefined): void {
    if (vector !== undefined) this.queries.set(text, { model: SCENARIO_VECTOR_MODEL, vector });
  }

  memory(memory: { id: string }): Embedding | null {
    return this.memories.get(memory.id) ?? null;
  }

  query(text: string): Embedding | undefined {
    return this.queries.get(text);
  }
}

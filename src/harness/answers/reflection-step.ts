/**
 * When and how reflection runs during an answer trial: the summed importance of memories stored
 * since the last reflection is kept, and once it reaches the threshold reflection asks its
 * questions over the scope's most recent memories, retrieves evidence with the trial's own policy,
 * and stores insights as semantic memories.
 */
import { retrieve } from "../../memory/index.js";
import type { MemoryStore } from "../../memory/store/store.js";
import type { RetrievalPolicy } from "../../memory/types.js";
import { reflect, reflectionDue, REFLECTION_THRESHOLD, type Insight } from "../../model/reflection.js";
import type { ModelClient, SamplingOptions } from "../../model/types.js";

/** Generative Agents reflects over the latest 100 memories. */
export const REFLECTION_RECENT = 100;

export interface ReflectionStepDeps {
  client: ModelClient;
  store: MemoryStore;
  scope: string;
  policy: RetrievalPolicy;
  model: string;
  options: SamplingOptions;
  rate: (text: string) => Promise<number>;
  threshold?: number;
}

export class ReflectionStep {
  private accumulated = 0;
  readonly insights: Insight[] = [];
  runs = 0;

  constructor(private readonly deps: ReflectionStepDeps) {}

  /** Adds newly stored importance; reflects (and starts counting afresh) once the threshold is reached. */
  async add(importances: readonly number[], now: number): Promise<void> {
    this.accumulated += importances.reduce((a, b) => a + b, 0);
    if (!reflectionDue(this.accumulated, this.deps.threshold ?? REFLECTION_THRESHOLD)) return;
    this.accumulated = 0;
    this.runs++;
    const { client, store, scope, policy, model, options, rate } = this.deps;
    const recent = store
      .current(scope, now)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1))
      .slice(0, REFLECTION_RECENT)
      .map((m) => ({ id: m.id, text: m.text }));
    const result = await reflect(
      {
        client,
        retrieve: (question) =>
          retrieve(store, { scope, query: { text: question }, now, policy })
            .sections.flatMap((s) => s.kept)
            .map((id) => ({ id, text: store.get(id)!.text })),
        remember: (memory) => store.remember(memory),
        rate,
      },
      { scope, now, recent, model, options },
    );
    this.insights.push(...result.insights);
  }
}

/**
 * Write-back: each chat turn becomes an episodic memory that happened `now`, so later questions
 * can recall the conversation itself.
 */
import type { MemoryStore } from "./store/store.js";
import { DEFAULT_IMPORTANCE, type Memory, type RetrievalPolicy, type Turn } from "./types.js";

export function turnText(turn: Pick<Turn, "user" | "assistant">): string {
  const asked = `User asked: ${turn.user}`;
  return turn.assistant === undefined ? asked : `${asked} / Assistant answered: ${turn.assistant}`;
}

/** Stores the turn as an episodic memory, or returns null when the policy turns write-back off. */
export function writeBack(
  store: MemoryStore,
  turn: Turn,
  policy: Pick<RetrievalPolicy, "writeBack">,
): Memory | null {
  if (!policy.writeBack) return null;
  return store.remember({
    id: turn.id,
    scope: turn.scope,
    kind: "episodic",
    text: turnText(turn),
    createdAt: turn.now,
    occurredAt: turn.now,
    lastAccessedAt: turn.now,
    importance: turn.importance ?? DEFAULT_IMPORTANCE,
    source: "write-back",
    embedding: turn.embedding ?? null,
  });
}

/**
 * The memory library on its own: open a store, write memories, correct one, and retrieve a
 * block for a question under a preset policy, all on a virtual clock.
 * Run with `npx tsx examples/memory-library/remember-and-retrieve.ts`.
 */
import { loadGemmaTokenizer, openStore, perKindPreset, retrieve } from "../../src/memory/index.js";

const HOUR = 3_600_000;

export async function rememberAndRetrieve(): Promise<{ kept: string[]; text: string }> {
  const store = openStore(":memory:", { tokenizer: await loadGemmaTokenizer() });
  try {
    const t0 = Date.UTC(2024, 0, 1);
    store.remember({ id: "home", scope: "ana", kind: "semantic", text: "Ana lives in Porto.", createdAt: t0 });
    store.remember({ id: "trip", scope: "ana", kind: "episodic", text: "Ana went hiking in Gerês.", createdAt: t0 + HOUR, occurredAt: t0 });
    // A correction: "home" stops being current, so no retrieval returns it again.
    store.correct("home", { id: "moved", scope: "ana", kind: "semantic", text: "Ana lives in Lisbon now.", createdAt: t0 + 2 * HOUR });
    const block = retrieve(store, { scope: "ana", query: { text: "where does Ana live?" }, now: t0 + 3 * HOUR, policy: perKindPreset });
    return { kept: block.sections.flatMap((s) => s.kept), text: block.text };
  } finally {
    store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { text } = await rememberAndRetrieve();
  console.log(text);
}

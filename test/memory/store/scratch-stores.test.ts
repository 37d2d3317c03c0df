import { describe, expect, it, vi } from "vitest";
import { ScratchStores } from "../../../src/memory/store/scratch-stores.js";
import type { MemoryStore } from "../../../src/memory/store/store.js";
import { retrieve } from "../../../src/memory/retrieve.js";
import { fullPolicy } from "../../../src/memory/presets.js";
import { HOUR, memoryStore, T0, tokenizer } from "../helpers.js";

/** One short life of a store: writes, a correction, an expiry, a touch; what it then holds and ranks. */
function play(store: MemoryStore) {
  const tea = store.remember({ scope: "ana", kind: "semantic", text: "Ana drinks tea.", createdAt: T0 });
  store.rememberMany([
    { id: "rome", scope: "ana", kind: "episodic", text: "Ana went to Rome.", createdAt: T0 + HOUR, occurredAt: T0 },
    { id: "pass", scope: "ana", kind: "working", text: "The door code is 1234.", createdAt: T0 + HOUR, expiresAt: T0 + 2 * HOUR },
    { scope: "bo", kind: "semantic", text: "Bo drinks coffee.", createdAt: T0 },
  ]);
  store.correct(tea.id, { scope: "ana", kind: "semantic", text: "Ana drinks green tea now.", createdAt: T0 + 3 * HOUR });
  const block = retrieve(store, { scope: "ana", query: { text: "what does Ana drink?" }, now: T0 + 4 * HOUR, policy: fullPolicy });
  return { current: store.current("ana", T0 + 4 * HOUR), size: store.size(), scopes: store.scopes(), block };
}

describe("ScratchStores", () => {
  it("gives stores that behave as openStore(':memory:') does, the first and every later one on a kept connection", () => {
    const expected = play(memoryStore());
    const stores = new ScratchStores();
    for (let i = 0; i < 3; i++) {
      const store = stores.open({ tokenizer });
      expect(play(store), `store ${i + 1}`).toEqual(expected);
      store.close();
    }
    stores.close();
  });

  it("opens every store empty: nothing of a closed store's rows, ids or sequence is left", () => {
    const stores = new ScratchStores();
    const first = stores.open({ tokenizer });
    first.remember({ id: "x", scope: "ana", kind: "semantic", text: "Old.", createdAt: T0 });
    first.remember({ scope: "ana", kind: "semantic", text: "Older.", createdAt: T0 });
    first.close();
    const second = stores.open({ tokenizer });
    expect(second.size()).toBe(0);
    expect(second.get("ana", "x")).toBeUndefined();
    // The id is free again, and default ids start over as in a new store.
    const fresh = memoryStore();
    for (const store of [second, fresh]) store.remember({ id: "x", scope: "ana", kind: "semantic", text: "New.", createdAt: T0 });
    const newer = { scope: "ana", kind: "semantic" as const, text: "Newer.", createdAt: T0 };
    expect(second.remember(newer)).toEqual(fresh.remember(newer));
    second.close();
    stores.close();
  });

  it("keeps stores open at once apart, each on its own connection", () => {
    const stores = new ScratchStores();
    const a = stores.open({ tokenizer });
    const b = stores.open({ tokenizer });
    a.remember({ id: "m", scope: "ana", kind: "semantic", text: "Only in a.", createdAt: T0 });
    expect(b.size()).toBe(0);
    b.close();
    expect(a.get("ana", "m")?.text).toBe("Only in a.");
    a.close();
    stores.close();
  });

  it("releases a store's connection once, however often the store is closed", () => {
    const stores = new ScratchStores();
    const store = stores.open({ tokenizer });
    store.close();
    store.close();
    const a = stores.open({ tokenizer });
    const b = stores.open({ tokenizer });
    a.remember({ id: "m", scope: "ana", kind: "semantic", text: "Only in a.", createdAt: T0 });
    expect(b.size(), "a second close made two stores share a connection").toBe(0);
    a.close();
    b.close();
    stores.close();
  });

  it("stays usable after close: a store open then keeps working, and later stores get new connections", () => {
    const stores = new ScratchStores();
    const open = stores.open({ tokenizer });
    stores.close();
    open.remember({ id: "m", scope: "ana", kind: "semantic", text: "Still here.", createdAt: T0 });
    expect(open.size()).toBe(1);
    open.close();
    const later = stores.open({ tokenizer });
    expect(later.size()).toBe(0);
    later.close();
    stores.close();
  });
});

describe("ScratchStores' connections", () => {
  it("names its stores as openStore names an in-memory one", () => {
    const stores = new ScratchStores();
    const store = stores.open({ tokenizer });
    expect(store.file).toBe(":memory:");
    store.close();
    stores.close();
  });

  it("keeps one connection for stores opened one after another, however often each is closed, and closes it when closed itself", async () => {
    const { default: Database } = await import("better-sqlite3");
    const stores = new ScratchStores();
    const first = stores.open({ tokenizer });
    first.close();
    first.close();
    stores.open({ tokenizer }).close();
    const closing = vi.spyOn(Database.prototype, "close");
    try {
      stores.close();
      expect(closing).toHaveBeenCalledTimes(1);
    } finally {
      closing.mockRestore();
    }
  });
});

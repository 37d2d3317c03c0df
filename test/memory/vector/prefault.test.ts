import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIN_PREFAULT_BYTES, PAGE_BYTES, Prefaulter } from "../../../src/memory/vector/prefault.js";
import { sharedMemory } from "../../../src/shared/wasm-encoding.js";

const MIB_PAGES = 16; // wasm pages (64 KiB) in 1 MiB
const prefaulters: Prefaulter[] = [];
afterEach(async () => {
  for (const p of prefaulters.splice(0)) await p.close();
});
function prefaulter(program?: string): Prefaulter {
  const p = new Prefaulter(program);
  prefaulters.push(p);
  return p;
}

/** A memory of `mib` MiB whose int32 at each index holds the index plus one. */
function numbered(mib: number): { memory: WebAssembly.Memory; words: Int32Array } {
  const memory = sharedMemory(mib * MIB_PAGES);
  const words = new Int32Array(memory.buffer);
  for (let i = 0; i < words.length; i++) words[i] = i + 1;
  return { memory, words };
}

function unchanged(words: Int32Array): boolean {
  for (let i = 0; i < words.length; i++) if (words[i] !== i + 1) return false;
  return true;
}

describe("Prefaulter", () => {
  it("touches each page from the first that starts at or after `from` up to `to`, and changes no value", async () => {
    const { memory, words } = numbered(4);
    const p = prefaulter();
    const from = 3 * PAGE_BYTES + 1; // inside page 3: that page is left alone
    const to = from + MIN_PREFAULT_BYTES + PAGE_BYTES;
    p.touch(memory, from, to);
    // Pages 4 … the last that starts before `to`.
    const expected = Math.ceil(to / PAGE_BYTES) - 4;
    expect(await p.idle()).toBe(expected);
    expect(unchanged(words)).toBe(true);
  });

  it("leaves ranges shorter than MIN_PREFAULT_BYTES to fault where they are written", async () => {
    const { memory } = numbered(2);
    const p = prefaulter();
    p.touch(memory, 0, MIN_PREFAULT_BYTES - 1);
    p.touch(memory, 1, MIN_PREFAULT_BYTES + 1); // from page 1 on: one byte short
    expect(await p.idle()).toBe(0);
    p.touch(memory, 0, MIN_PREFAULT_BYTES);
    expect(await p.idle()).toBe(MIN_PREFAULT_BYTES / PAGE_BYTES);
  });

  it("stops at the end of the memory", async () => {
    const { memory } = numbered(2);
    const p = prefaulter();
    p.touch(memory, 0, 10 * MIN_PREFAULT_BYTES);
    expect(await p.idle()).toBe((2 * MIN_PREFAULT_BYTES) / PAGE_BYTES);
  });

  it("keeps every value this thread writes while the helper touches the same pages", async () => {
    const mib = 32;
    const memory = sharedMemory(mib * MIB_PAGES);
    const words = new Int32Array(memory.buffer);
    const p = prefaulter();
    for (let round = 1; round <= 3; round++) {
      p.touch(memory, 0, words.length * 4);
      // Written as the helper runs through the same pages, one page's first word after another.
      for (let i = 0; i < words.length; i += PAGE_BYTES / 4) words[i] = round * 1_000_000 + i;
      await p.idle();
      let lost = 0;
      for (let i = 0; i < words.length; i += PAGE_BYTES / 4) if (words[i] !== round * 1_000_000 + i) lost++;
      expect(lost, `round ${round}`).toBe(0);
    }
    expect(await p.idle()).toBe((3 * mib * MIN_PREFAULT_BYTES) / PAGE_BYTES);
  });

  it("sees the memory as it has grown since the helper started", async () => {
    const { memory } = numbered(1);
    const p = prefaulter();
    p.touch(memory, 0, MIN_PREFAULT_BYTES);
    expect(await p.idle()).toBe(256);
    memory.grow(2 * MIB_PAGES);
    p.touch(memory, MIN_PREFAULT_BYTES, 3 * MIN_PREFAULT_BYTES);
    expect(await p.idle()).toBe(256 * 3);
  });

  it("stops its helper on close, and starts another for a later touch", async () => {
    const { memory, words } = numbered(2);
    const p = prefaulter();
    p.touch(memory, 0, MIN_PREFAULT_BYTES);
    await p.close();
    expect(await p.idle()).toBe(0); // the closed helper's ranges are not awaited
    p.touch(memory, 0, 2 * MIN_PREFAULT_BYTES);
    expect(await p.idle()).toBe(512);
    expect(unchanged(words)).toBe(true);
  });

  describe("when its helper thread dies", () => {
    const dying = `require("node:worker_threads").parentPort.on("message", () => { throw new Error("out of pages"); });`;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    beforeEach(() => {
      warnings.length = 0;
      process.on("warning", onWarning);
    });
    afterEach(() => {
      process.off("warning", onWarning);
    });

    it("rejects idle() with the helper's error as the cause, and warns even when no one waits", async () => {
      const { memory, words } = numbered(2);
      const p = prefaulter(dying);
      p.touch(memory, 0, MIN_PREFAULT_BYTES);
      const idle = p.idle();
      await expect(idle).rejects.toThrow(/prefault helper thread stopped \(out of pages\)/);
      await expect(idle).rejects.toHaveProperty("cause.message", "out of pages");
      expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/out of pages/)]);
      expect(unchanged(words)).toBe(true);
    });

    it("asks for no more touches, and keeps saying why", async () => {
      const { memory } = numbered(2);
      const p = prefaulter(dying);
      p.touch(memory, 0, MIN_PREFAULT_BYTES);
      await expect(p.idle()).rejects.toThrow(/out of pages/);
      p.touch(memory, 0, 2 * MIN_PREFAULT_BYTES); // would start a helper, which would die too
      await expect(p.idle()).rejects.toThrow(/out of pages/);
      expect(warnings).toHaveLength(1);
    });

    it("counts a helper that exits without an error as dead", async () => {
      const { memory } = numbered(2);
      const p = prefaulter(`process.exit(3);`);
      p.touch(memory, 0, MIN_PREFAULT_BYTES);
      await expect(p.idle()).rejects.toThrow(/exited with code 3/);
    });
  });
});

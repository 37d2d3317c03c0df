/**
 * Faults in pages of a shared WebAssembly memory on a helper thread, ahead of the writes that will
 * fill them. The first write to a fresh page costs a page fault: well under a microsecond on bare
 * metal, but 15–20 µs on virtual machines whose host backs guest memory lazily, where the faults
 * of an embedding column cost more than everything else the index does on ingest. Touching the
 * pages of the next batch's slots while this thread writes SQLite overlaps that cost with work
 * that has to be done anyway, as a JVM pre-touches its heap on worker threads.
 *
 * A page is touched by atomically adding zero to its first four bytes: a write, so the page is
 * really allocated, that leaves every value as it was. Being one atomic read-modify-write, it
 * cannot undo a store this thread makes to the same bytes at the same moment.
 */
import { Worker } from "node:worker_threads";

/** A page of the smallest size systems use; touching every one of these touches every larger page too. */
export const PAGE_BYTES = 4096;
/**
 * Ranges shorter than this are left to fault where they are written: below it, the faults cost
 * less than a message to the helper (and, the first time, less than starting it).
 */
export const MIN_PREFAULT_BYTES = 1 << 20;

/** The helper's whole program: touch one int32 per page of each range it is sent, then say how many. */
const TOUCH_PAGES = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ memory, from, to }) => {
  const words = new Int32Array(memory.buffer);
  let pages = 0;
  for (let at = from; at < to; at += ${PAGE_BYTES}, pages++) Atomics.add(words, at / 4, 0);
  parentPort.postMessage(pages);
});
`;

export class Prefaulter {
  private worker: Worker | null = null;
  /** Ranges sent and not yet touched. */
  private pending = 0;
  private touched = 0;
  private waiters: (() => void)[] = [];

  /**
   * Asks for the pages within bytes [from, to) of `memory` to be faulted in, in the background.
   * A page that starts before `from` is left alone: it holds bytes already written, so it is in.
   */
  touch(memory: WebAssembly.Memory, from: number, to: number): void {
    const first = Math.ceil(from / PAGE_BYTES) * PAGE_BYTES;
    const end = Math.min(to, memory.buffer.byteLength);
    if (end - first < MIN_PREFAULT_BYTES) return;
    this.pending++;
    this.helper().postMessage({ memory, from: first, to: end });
  }

  /** Resolves, once every range asked for so far is touched, to the pages touched since the start. */
  idle(): Promise<number> {
    if (this.pending === 0) return Promise.resolve(this.touched);
    return new Promise((resolve) => this.waiters.push(() => resolve(this.touched)));
  }

  /** Stops the helper; a later touch starts another. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.pending = 0;
    for (const wake of this.waiters.splice(0)) wake();
    await worker?.terminate();
  }

  private helper(): Worker {
    if (this.worker === null) {
      const worker = new Worker(TOUCH_PAGES, { eval: true });
      worker.on("message", (pages: number) => {
        if (this.worker !== worker) return; // closed: its ranges no longer count
        this.touched += pages;
        if (--this.pending === 0) for (const wake of this.waiters.splice(0)) wake();
      });
      // A helper left running must not keep the process alive: it only ever saves time.
      worker.unref();
      this.worker = worker;
    }
    return this.worker;
  }
}

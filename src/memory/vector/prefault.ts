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

interface Waiter {
  resolve: (touched: number) => void;
  reject: (error: Error) => void;
}

export class Prefaulter {
  private worker: Worker | null = null;
  /** Ranges sent and not yet touched. */
  private pending = 0;
  private touched = 0;
  private waiters: Waiter[] = [];
  /**
   * Why the helper died, once it has. Prefaulting only saves time, so writes go on without it;
   * touch asks for nothing more (a helper that died once would likely die again), and idle reports it.
   */
  private failure: Error | null = null;

  /** `program` is the helper's source; tests give one that fails. */
  constructor(private readonly program: string = TOUCH_PAGES) {}

  /**
   * Asks for the pages within bytes [from, to) of `memory` to be faulted in, in the background.
   * A page that starts before `from` is left alone: it holds bytes already written, so it is in.
   */
  touch(memory: WebAssembly.Memory, from: number, to: number): void {
    const first = Math.ceil(from / PAGE_BYTES) * PAGE_BYTES;
    const end = Math.min(to, memory.buffer.byteLength);
    if (end - first < MIN_PREFAULT_BYTES || this.failure !== null) return;
    this.pending++;
    this.helper().postMessage({ memory, from: first, to: end });
  }

  /**
   * Resolves, once every range asked for so far is touched, to the pages touched since the start;
   * rejects, with the cause, once the helper has died.
   */
  idle(): Promise<number> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.pending === 0) return Promise.resolve(this.touched);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Stops the helper; a later touch starts another. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.pending = 0;
    for (const { resolve } of this.waiters.splice(0)) resolve(this.touched);
    await worker?.terminate();
  }

  private helper(): Worker {
    if (this.worker === null) {
      const worker = new Worker(this.program, { eval: true });
      worker.on("message", (pages: number) => {
        if (this.worker !== worker) return; // closed: its ranges no longer count
        this.touched += pages;
        if (--this.pending === 0) for (const { resolve } of this.waiters.splice(0)) resolve(this.touched);
      });
      worker.on("error", (error) => this.fail(worker, error));
      // Without an error (killed from outside, process.exit in the helper), the exit is the only sign.
      worker.on("exit", (code) => this.fail(worker, new Error(`exited with code ${code}`)));
      // A helper left running must not keep the process alive: it only ever saves time.
      worker.unref();
      this.worker = worker;
    }
    return this.worker;
  }

  /** Records the death of `worker`, the running helper (a closed one's exit is expected). */
  private fail(worker: Worker, cause: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.pending = 0;
    this.failure = new Error(`the page prefault helper thread stopped (${cause.message}); memories are still written, only without prefaulting`, { cause });
    // Nothing may be awaiting idle(), and a store goes on working, so say it once where Node says such things.
    process.emitWarning(this.failure);
    for (const { reject } of this.waiters.splice(0)) reject(this.failure);
  }
}

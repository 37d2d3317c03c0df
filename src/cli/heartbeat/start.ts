import { Worker } from "node:worker_threads";
import type { PhaseState } from "../progress-line.js";
import type { HeartbeatData, HeartbeatMessage } from "./messages.js";

export interface Heartbeat {
  /** Tells the thread where things stand; it repeats that line whenever `heartbeatMs` pass in silence. */
  report(phase: PhaseState): void;
  /** Records that the main thread just wrote a line, so the heartbeat waits a full interval again. */
  wrote(at: number): void;
  /** Resolves once the thread runs. */
  ready: Promise<void>;
  stop(): void;
}

/** Starts the heartbeat thread writing to `fd`. It never keeps the process alive on its own. */
export function startHeartbeat(fd: number, heartbeatMs: number): Heartbeat {
  const lastWrite = new SharedArrayBuffer(8);
  const last = new BigInt64Array(lastWrite);
  Atomics.store(last, 0, BigInt(Date.now()));
  const data: HeartbeatData = { fd, heartbeatMs, lastWrite };
  const worker = new Worker(new URL("./entry.mjs", import.meta.url), { workerData: data });
  worker.unref();
  const post = (message: HeartbeatMessage) => worker.postMessage(message);
  const ready = new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve());
    worker.once("error", reject);
  });
  // A heartbeat that cannot start must not fail the command it only decorates.
  ready.catch(() => undefined);
  return {
    report: (phase) => post({ type: "phase", phase }),
    wrote: (at) => Atomics.store(last, 0, BigInt(at)),
    ready,
    stop() {
      post({ type: "stop" });
      void worker.terminate();
    },
  };
}

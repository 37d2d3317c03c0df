import { writeSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { type PhaseState, phaseLine } from "../progress-line.js";
import type { HeartbeatData, HeartbeatMessage } from "./messages.js";

/*
 * Runs on its own thread, so that it keeps its pace while the main thread is busy with long
 * synchronous work (loading a tokenizer, statistics, drawing charts). It writes straight to the
 * file descriptor: a worker's process.stderr is relayed through the main thread, which may be busy.
 */
const { fd, heartbeatMs, lastWrite } = workerData as HeartbeatData;
const last = new BigInt64Array(lastWrite);
let phase: PhaseState | undefined;

parentPort!.on("message", (message: HeartbeatMessage) => {
  if (message.type === "phase") phase = message.phase;
  else {
    phase = undefined;
    parentPort!.close();
    clearInterval(timer);
  }
});

const timer = setInterval(() => {
  const now = Date.now();
  if (phase === undefined || now - Number(Atomics.load(last, 0)) < heartbeatMs) return;
  Atomics.store(last, 0, BigInt(now));
  writeSync(fd, `${phaseLine(phase, now)}\n`);
}, Math.max(25, Math.floor(heartbeatMs / 4)));

parentPort!.postMessage({ type: "ready" });

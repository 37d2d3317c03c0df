import type { PhaseState } from "../progress-line.js";

export interface HeartbeatData {
  /** Where to write: the file descriptor of the progress stream. */
  fd: number;
  heartbeatMs: number;
  /** One 64-bit slot shared with the main thread: when either last wrote a line (epoch ms). */
  lastWrite: SharedArrayBuffer;
}

/** From the main thread: where things stand now, or that the command is done. */
export type HeartbeatMessage = { type: "phase"; phase: PhaseState } | { type: "stop" };

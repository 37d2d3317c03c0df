import cliProgress from "cli-progress";
import type { OutputStream } from "./app.js";
import { type Heartbeat, startHeartbeat } from "./heartbeat/start.js";
import { advance, newPhase, type PhaseState, phaseLine, phaseStatus } from "./progress-line.js";

/**
 * Progress of a long command, one phase at a time: loading, an experiment's trials, the reports.
 * It never goes silent. On a terminal the bar redraws itself. Elsewhere (CI, pipes, log files) a
 * line is written when a phase starts, at every tenth of it (every step of a short phase), and a
 * heartbeat thread repeats where things stand whenever HEARTBEAT_MS pass without a line, even
 * while this thread is busy with long synchronous work.
 */
export interface Progress {
  /** Starts a phase: what it works on, how many steps it takes (undefined: not known yet), what a step is called. */
  phase(label: string, total: number | undefined, unit: string, note?: string): void;
  /** Steps done so far in the current phase, what runs now, and the step count once it is known. */
  update(done: number, note?: string, total?: number): void;
  /** Writes a line of the command's own output (to stdout), clear of the bar. */
  log(line: string): void;
  /** Ends the last phase and the heartbeat. */
  stop(): void;
}

export interface ProgressOptions {
  /** Where the progress goes (stderr by default). */
  stream?: OutputStream;
  /** Where the command's own lines go (stdout by default). */
  log?: (line: string) => void;
  /** The file descriptor the heartbeat thread writes to: 2 for stderr; none for another stream. */
  heartbeatFd?: number;
  /** Milliseconds of silence after which the heartbeat repeats where things stand. */
  heartbeatMs?: number;
  /** Starts the heartbeat thread (default startHeartbeat). */
  startHeartbeat?: typeof startHeartbeat;
  now?: () => number;
}

export const HEARTBEAT_MS = 2000;
/** Phases of this many steps or fewer get a line per step rather than per tenth. */
const SHORT_PHASE = 20;

export function progress(options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? (() => Date.now());
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (stream.isTTY) return terminalProgress(stream, now, log);
  const fd = options.heartbeatFd ?? (stream === process.stderr ? 2 : undefined);
  const start = options.startHeartbeat ?? startHeartbeat;
  // The thread starts with the first phase: a command refused before it (a bad file, a bad flag)
  // has nothing to repeat, and starting the thread costs it about as much as loading its own code.
  const heartbeat = fd === undefined ? undefined : () => start(fd, options.heartbeatMs ?? HEARTBEAT_MS);
  return lineProgress(stream, now, log, heartbeat);
}

function lineProgress(stream: OutputStream, now: () => number, log: (line: string) => void, startBeat: (() => Heartbeat) | undefined): Progress {
  let heartbeat: Heartbeat | undefined;
  let current: PhaseState | undefined;
  let lastTenth = -1;
  const write = (phase: PhaseState) => {
    const at = now();
    stream.write(`${phaseLine(phase, at)}\n`);
    heartbeat?.wrote(at);
  };
  return {
    phase(label, total, unit, note = "") {
      current = newPhase(label, total, unit, note, now());
      lastTenth = -1;
      heartbeat ??= startBeat?.();
      heartbeat?.report(current);
      write(current);
    },
    update(done, note, total) {
      if (current === undefined) return;
      const noteChanged = note !== undefined && note !== current.note;
      advance(current, done, note, total, now());
      heartbeat?.report(current);
      const steps = current.total ?? 0;
      const tenth = steps === 0 ? 10 : Math.floor((10 * done) / steps);
      if (noteChanged || steps <= SHORT_PHASE || tenth !== lastTenth) {
        lastTenth = tenth;
        write(current);
      }
    },
    log,
    stop() {
      heartbeat?.stop();
      current = undefined;
    },
  };
}

function terminalProgress(stream: OutputStream, now: () => number, log: (line: string) => void): Progress {
  let current: PhaseState | undefined;
  let bar: cliProgress.SingleBar | undefined;
  let barHasTotal = false;
  const payload = () => (current === undefined ? {} : { label: current.label, unit: current.unit, status: phaseStatus(current, now()) });
  // The bar redraws on its own timer; this one keeps the elapsed time and the estimate fresh.
  const timer = setInterval(() => bar?.update(payload()), 500);
  timer.unref();
  const close = () => {
    bar?.stop();
    bar = undefined;
  };
  /** A bar for the current phase: a plain status line until the step count is known. */
  const open = (phase: PhaseState) => {
    close();
    barHasTotal = phase.total !== undefined;
    const format = barHasTotal ? "{label} [{bar}] {value}/{total} {unit} · {status}" : "{label}: {status}";
    bar = new cliProgress.SingleBar({ format, stream, hideCursor: true }, cliProgress.Presets.shades_classic);
    bar.start(phase.total ?? 0, phase.done, payload());
  };
  return {
    phase(label, total, unit, note = "") {
      current = newPhase(label, total, unit, note, now());
      open(current);
    },
    update(done, note, total) {
      if (current === undefined) return;
      advance(current, done, note, total, now());
      if (!barHasTotal && current.total !== undefined) open(current);
      bar?.update(done, payload());
    },
    log(line) {
      // Lift the bar, write the line, and draw the bar again below it.
      const phase = bar === undefined ? undefined : current;
      close();
      log(line);
      if (phase !== undefined) open(phase);
    },
    stop() {
      clearInterval(timer);
      close();
      current = undefined;
    },
  };
}

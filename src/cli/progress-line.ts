/**
 * Where a phase of a long command stands, and the one line that says so. Pure: the main thread
 * and the heartbeat thread format the same state the same way.
 */
export interface PhaseState {
  /** What the phase works on: an experiment's name, "reports". */
  label: string;
  /** Steps it takes; undefined while that is not known yet. */
  total: number | undefined;
  /** What a step is called: "trials", "steps". */
  unit: string;
  /** What runs now, e.g. "starting workers" or a reporter's name. */
  note: string;
  /** Wall-clock milliseconds when the phase started. */
  startedAt: number;
  done: number;
  /** Steps done at the first update: steps a resumed run had done before this one. */
  initial: number | undefined;
  /** The first step this run finished, and when: the rate is measured from there, after start-up. */
  first: { done: number; at: number } | undefined;
  /** The latest step this run finished, and when: the rate is measured up to there, never up to now. */
  last: { done: number; at: number } | undefined;
}

export function newPhase(label: string, total: number | undefined, unit: string, note: string, at: number): PhaseState {
  return { label, total, unit, note, startedAt: at, done: 0, initial: undefined, first: undefined, last: undefined };
}

/** Records an update; the first step finished after the first update starts the rate. */
export function advance(phase: PhaseState, done: number, note: string | undefined, total: number | undefined, at: number): void {
  if (total !== undefined) phase.total = total;
  phase.initial ??= done;
  if (phase.first === undefined && done > phase.initial) phase.first = { done, at };
  if (done > (phase.last?.done ?? phase.initial)) phase.last = { done, at };
  phase.done = done;
  if (note !== undefined) phase.note = note;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

/**
 * Time left, at the rate between the first and the latest finished step, counted down from the
 * latest: while no step finishes, the estimate only shrinks (a rate measured up to now would make
 * it grow), and once it runs out it is not shown until a step finishes again. Undefined until a
 * second step has finished, and once all have.
 */
export function estimateLeft(phase: Pick<PhaseState, "total" | "done" | "first" | "last">, now: number): number | undefined {
  const { total, done, first, last } = phase;
  if (total === undefined || done >= total || first === undefined || last === undefined || last.done <= first.done || last.at <= first.at) return undefined;
  const rate = (last.done - first.done) / (last.at - first.at);
  const left = (total - last.done) / rate - Math.max(0, now - last.at);
  return left > 0 ? left : undefined;
}

/** The words after the count: what runs now, time so far and time left. */
export function phaseStatus(phase: PhaseState, now: number): string {
  const left = estimateLeft(phase, now);
  return [phase.note, formatDuration(now - phase.startedAt), left === undefined ? "" : `ETA ${formatDuration(left)}`]
    .filter((part) => part !== "")
    .join(" · ");
}

/** e.g. "core: 352/880 trials · 7 s · ETA 4 s", or "core: starting workers · 2 s" before the count is known. */
export function phaseLine(phase: PhaseState, now: number): string {
  const count = phase.total === undefined ? "" : ` ${phase.done}/${phase.total} ${phase.unit}`.trimEnd();
  return `${phase.label}:${count} ${count === "" ? "" : "· "}${phaseStatus(phase, now)}`.replace(/ +/g, " ");
}

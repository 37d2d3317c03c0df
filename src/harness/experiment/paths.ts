import { type Stats, statSync } from "node:fs";
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import { globSync, isDynamicPattern } from "tinyglobby";
import { fileError } from "../../shared/errors.js";
import { byCodeUnit } from "../../shared/order.js";
import { kindOf } from "../../shared/read-file.js";

/**
 * Paths written in an experiment file start from the file's own folder, wherever the command is
 * run from, so an experiment and its data travel together. They stay inside that folder unless
 * the experiment says `allowOutside: true`; a glob whose fixed part is the filesystem root is
 * refused outright, since matching it means walking the whole disk.
 */
export class ExperimentPaths {
  /** The experiment's folder, as a path usable from the working folder. */
  readonly folder: string;

  constructor(
    private readonly experimentFile: string,
    private readonly allowOutside: boolean,
  ) {
    this.folder = dirname(experimentFile);
  }

  /** A file path written at `where` ("dataset.path"), resolved; it must exist and be a file. */
  file(written: string, where: string, what: string): string {
    const path = this.path(written, where);
    this.checkFile(path, written, where, what);
    return path;
  }

  /** A path written at `where`, resolved and kept inside the folder as `file` keeps it, but not required to exist. */
  path(written: string, where: string): string {
    const path = this.resolve(written);
    this.checkInside(path, written, where);
    return path;
  }

  /** The files a pattern (a path or a glob) written at `where` names, sorted; none is an error. */
  files(pattern: string, where: string, what: string): string[] {
    if (!isDynamicPattern(pattern)) return [this.file(pattern, where, what)];
    const base = this.resolve(globBase(pattern));
    if (resolve(base) === parse(resolve(base)).root) {
      throw fileError(this.experimentFile, `at ${where}: "${pattern}" would search the whole filesystem; name a folder before the first wildcard`);
    }
    this.checkInside(base, pattern, where);
    const matches = globSync(pattern, { cwd: this.folder, onlyFiles: true, expandDirectories: false })
      .sort(byCodeUnit)
      .map((match) => join(this.folder, match));
    if (matches.length === 0) {
      throw fileError(this.experimentFile, `at ${where}: no ${what} matches "${pattern}" (${this.relativeNote()})`);
    }
    for (const match of matches) this.checkInside(match, pattern, where);
    return matches;
  }

  /** `path` relative to the experiment's folder, with forward slashes, for the results manifest. */
  recorded(path: string): string {
    return relative(resolve(this.folder), resolve(path)).split("\\").join("/");
  }

  private resolve(written: string): string {
    return isAbsolute(written) ? written : join(this.folder, written);
  }

  private checkInside(path: string, written: string, where: string): void {
    if (this.allowOutside) return;
    const rel = relative(resolve(this.folder), resolve(path));
    if (rel.split(sep)[0] === ".." || isAbsolute(rel)) {
      throw fileError(
        this.experimentFile,
        `at ${where}: "${written}" is outside the experiment file's folder; move it there, or set allowOutside: true to read it`,
      );
    }
  }

  /** By stat alone: opening a FIFO to look at it would block until something writes to it. */
  private checkFile(path: string, written: string, where: string, what: string): void {
    let stats: Stats;
    try {
      stats = statSync(path);
    } catch (error) {
      throw fileError(this.experimentFile, `at ${where}: ${what} "${written}" not found (${this.relativeNote()})`, { cause: error });
    }
    if (stats.isDirectory()) throw fileError(this.experimentFile, `at ${where}: ${what} "${written}" is a folder, not a file`);
    if (!stats.isFile()) throw fileError(this.experimentFile, `at ${where}: ${what} "${written}" is not a regular file (${kindOf(stats)})`);
  }

  private relativeNote(): string {
    return `paths are relative to the experiment file's folder, ${this.folder === "." ? "the working folder" : `${this.folder}/`}`;
  }
}

/** The fixed folder a glob starts from: its segments before the first wildcard. */
export function globBase(pattern: string): string {
  const segments = pattern.split("/");
  const fixed: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (isDynamicPattern(segment)) break;
    fixed.push(segment);
  }
  if (fixed.length === 0) return ".";
  const base = fixed.join("/");
  return base === "" ? "/" : base;
}

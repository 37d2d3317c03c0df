/**
 * Checking a folder a command will write into, before any work is done: a run that can only fail
 * at its end, after every trial, should fail at its start. Nothing is created here; the folder is
 * made when the first file is written into it.
 */
import { accessSync, constants, lstatSync, readFileSync, realpathSync, type Stats, statfsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { flagError, unwritableFile, userError } from "./errors.js";
import { kindOf } from "./read-file.js";

/**
 * File systems the kernel makes up as it is read, which hold no files of ours. Node's recursive
 * mkdir never returns on /proc, so a path there must be refused before anything is made.
 */
const KERNEL_FILE_SYSTEMS = new Set([
  "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "bpf",
  "pstore", "configfs", "efivarfs", "fusectl", "mqueue", "selinuxfs", "binfmt_misc", "nsfs",
]);

/**
 * statfs's type numbers for the same file systems (linux/magic.h). devtmpfs is missing: it
 * reports tmpfs's number, so only the mount table tells it apart.
 */
const KERNEL_MAGIC = new Map<number, string>([
  [0x9fa0, "proc"], [0x62656572, "sysfs"], [0x1cd1, "devpts"], [0x27e0eb, "cgroup"], [0x63677270, "cgroup2"],
  [0x64626720, "debugfs"], [0x74726163, "tracefs"], [0x73636673, "securityfs"], [0xcafe4a11, "bpf"],
  [0x6165676c, "pstore"], [0x62656570, "configfs"], [0xde5e81e4, "efivarfs"], [0x65735543, "fusectl"],
  [0x19800202, "mqueue"], [0xf97cff8c, "selinuxfs"], [0x42494e4d, "binfmt_misc"], [0x6e736673, "nsfs"],
]);

export interface FolderSystem {
  /** The mount table, as /proc/self/mountinfo gives it; undefined where there is none. */
  mountInfo(): string | undefined;
  /** statfs's type number of the file system holding `path`; undefined where it means nothing. */
  fileSystemType(path: string): number | undefined;
}

const LINUX: FolderSystem = {
  mountInfo() {
    try {
      return readFileSync("/proc/self/mountinfo", "utf8");
    } catch {
      return undefined;
    }
  },
  fileSystemType: (path) => statfsSync(path).type,
};
const OTHER: FolderSystem = { mountInfo: () => undefined, fileSystemType: () => undefined };
const HOST = process.platform === "linux" ? LINUX : OTHER;

/**
 * Refuses, in one line starting with `flag`, a folder that cannot take files: "" (which would mean
 * the working folder), a path that is or lies under something other than a folder (a file, a FIFO,
 * a device, a dangling link), one on a kernel file system such as /proc or /sys, and one the user
 * may not write. A folder that does not exist yet passes when the nearest one that does passes.
 */
export function checkOutputFolder(path: string, flag = "--out", system: FolderSystem = HOST): void {
  if (path === "") throw flagError(flag, "a folder", path);
  let probe = path;
  let stats: Stats | undefined;
  for (;;) {
    stats = existing(probe, path, statSync);
    if (stats !== undefined) break;
    const link = existing(probe, path, lstatSync);
    if (link?.isSymbolicLink()) throw userError(`${flag} expects a folder, but ${probe} is a symbolic link to a path that does not exist`);
    // dirname keeps the user's spelling for messages, and ends at "." or "/".
    const parent = dirname(probe);
    if (parent === probe) throw userError(`${flag} expects a folder, but ${probe} does not exist`);
    probe = parent;
  }
  if (!stats.isDirectory()) {
    const what = probe === path ? `${path} is` : `${path} lies under ${probe}, which is`;
    throw userError(`${flag} expects a folder, but ${what} ${kindOf(stats)}`);
  }
  const kernel = kernelFileSystem(probe, system);
  if (kernel !== undefined) {
    throw userError(`${flag} expects a folder that can hold files, but ${path} is on the kernel's ${kernel} file system, which holds none`);
  }
  try {
    // Write to make entries, search to reach them.
    accessSync(probe, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw unwritableFile(path, error) ?? error;
  }
}

/** `probe`'s stats, or undefined when it (or a part of it, which is then not a folder) is absent. */
function existing(probe: string, path: string, stat: typeof statSync): Stats | undefined {
  try {
    return stat(probe, { throwIfNoEntry: false });
  } catch (error) {
    // A file in the middle of the path: the walk up finds it, and names it.
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw unwritableFile(path, error) ?? error;
  }
}

/** The name of the kernel file system `folder` (which exists) is on, if it is on one. */
function kernelFileSystem(folder: string, system: FolderSystem): string | undefined {
  const type = system.fileSystemType(folder);
  const byMagic = type === undefined ? undefined : KERNEL_MAGIC.get(type);
  if (byMagic !== undefined) return byMagic;
  const table = system.mountInfo();
  if (table === undefined) return undefined;
  const mounted = mountTypeOf(realpathSync(folder), table);
  return mounted !== undefined && KERNEL_FILE_SYSTEMS.has(mounted) ? mounted : undefined;
}

/**
 * The type of the mount holding `real` (a real path) in a mountinfo table: the one with the
 * longest mount point that contains it, the later one where two share a mount point (it hides
 * the earlier).
 */
export function mountTypeOf(real: string, mountInfo: string): string | undefined {
  let best: { point: string; type: string } | undefined;
  for (const line of mountInfo.split("\n")) {
    const [before, after] = line.split(" - ");
    if (after === undefined) continue;
    const point = unescapeMount(before.split(" ")[4] ?? "");
    const type = after.split(" ")[0];
    const contains = point === "/" || real === point || real.startsWith(`${point}/`);
    if (contains && (best === undefined || point.length >= best.point.length)) best = { point, type };
  }
  return best?.type;
}

/** mountinfo writes a space, tab, newline and backslash in a path as octal escapes. */
function unescapeMount(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_m, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

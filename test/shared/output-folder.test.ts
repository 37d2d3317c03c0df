import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkOutputFolder, type FolderSystem, mountTypeOf } from "../../src/shared/output-folder.js";
import { useTempDir } from "../harness/temp-files.js";
import { userError } from "../helpers/user-error.js";

const temp = useTempDir("recollect-out-");
const refusal = (path: string, system?: FolderSystem) => userError(() => checkOutputFolder(path, "--out", system)).message;

describe("checkOutputFolder", () => {
  it("passes a folder that exists, and one that does not yet, creating nothing", () => {
    const dir = temp.path("fresh");
    mkdirSync(dir);
    checkOutputFolder(dir);
    checkOutputFolder(join(dir, "a/b/c"));
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses an empty path, which would mean the working folder", () => expect(refusal("")).toBe('--out expects a folder, got ""'));

  it("names a file, a FIFO or a device given as the folder", () => {
    const file = temp.write("notes.txt", "a file\n");
    const fifo = temp.path("pipe");
    execFileSync("mkfifo", [fifo]);
    expect(refusal(file)).toBe(`--out expects a folder, but ${file} is a file`);
    expect(refusal(fifo)).toBe(`--out expects a folder, but ${fifo} is a FIFO`);
    expect(refusal("/dev/zero")).toBe("--out expects a folder, but /dev/zero is a character device");
  });

  it("names the file that a folder not yet made would lie under", () => {
    const file = temp.write("plain.txt", "");
    expect(refusal(join(file, "x/y"))).toBe(`--out expects a folder, but ${join(file, "x/y")} lies under ${file}, which is a file`);
  });

  it("names a symbolic link to nothing", () => {
    const link = temp.path("dangling");
    symlinkSync(temp.path("nowhere"), link);
    expect(refusal(join(link, "out"))).toBe(`--out expects a folder, but ${link} is a symbolic link to a path that does not exist`);
  });

  it.each(["/proc", "/proc/.recollect/journal", "/proc/self", "/sys/kernel/out"])("refuses %s, on a kernel file system, without making anything there", (path) => {
    const started = Date.now();
    expect(refusal(path)).toMatch(new RegExp(`^--out expects a folder that can hold files, but ${path} is on the kernel's (proc|sysfs) file system, which holds none$`));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(existsSync("/proc/.recollect")).toBe(false);
  });

  it("refuses devtmpfs, which statfs reports as tmpfs, by the mount table", () => {
    const mounts = ["22 1 0:21 / / rw - ext4 /dev/sda1 rw", `24 22 0:6 / ${temp.dir} rw,relatime - devtmpfs devtmpfs rw`].join("\n");
    const system: FolderSystem = { fileSystemType: () => 0x01021994, mountInfo: () => mounts };
    expect(refusal(temp.dir, system)).toBe(`--out expects a folder that can hold files, but ${temp.dir} is on the kernel's devtmpfs file system, which holds none`);
    checkOutputFolder(temp.dir, "--out", { fileSystemType: () => 0x01021994, mountInfo: () => undefined });
  });

  it("names a folder the user may not write", (context) => {
    if (process.getuid?.() === 0) return context.skip("root writes whatever the permissions say; the CLI's table runs this without root's capabilities");
    const dir = temp.path("locked");
    mkdirSync(dir);
    chmodSync(dir, 0o555);
    expect(refusal(join(dir, "out"))).toBe(`${join(dir, "out")}: cannot be written (permission denied)`);
  });
});

describe("on a read-only file system", () => {
  /** A read-only tmpfs; mounting needs root and a kernel that allows it, so elsewhere this is skipped. */
  function readOnlyMount(): { dir: string } | { skip: string } {
    if (process.getuid?.() !== 0) return { skip: "mounting a read-only tmpfs needs root" };
    const dir = temp.path("read-only");
    mkdirSync(dir);
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "ro,size=16k", "tmpfs", dir], { stdio: "pipe" });
    } catch (error) {
      return { skip: `mount -t tmpfs failed here (${String((error as Error).message).split("\n")[0]})` };
    }
    afterAll(() => execFileSync("umount", [dir]));
    return { dir };
  }
  const mount = readOnlyMount();

  it("names the folder and says why, even to root", (context) => {
    if ("skip" in mount) return context.skip(mount.skip);
    expect(refusal(join(mount.dir, "out"))).toBe(`${join(mount.dir, "out")}: cannot be written (the file system is read-only)`);
  });
});

describe("mountTypeOf", () => {
  const table = [
    "1 0 8:1 / / rw - ext4 /dev/sda1 rw",
    "2 1 0:6 / /dev rw - devtmpfs devtmpfs rw",
    "3 2 0:7 / /dev/shm rw - tmpfs tmpfs rw",
    "4 1 0:8 / /mnt/my\\040disk rw - vfat /dev/sdb1 rw",
    "5 1 0:9 / /mnt/my\\040disk rw - proc proc rw",
  ].join("\n");

  it("takes the longest mount point holding the path", () => {
    expect(mountTypeOf("/dev/null", table)).toBe("devtmpfs");
    expect(mountTypeOf("/dev/shm/x", table)).toBe("tmpfs");
    expect(mountTypeOf("/devices", table)).toBe("ext4");
    expect(mountTypeOf("/", table)).toBe("ext4");
  });

  it("reads escaped spaces, and takes the later of two mounts on one point, which hides the first", () =>
    expect(mountTypeOf("/mnt/my disk/out", table)).toBe("proc"));
});

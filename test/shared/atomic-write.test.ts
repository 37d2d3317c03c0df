import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type AtomicWriteFs, writeFileAtomicSync } from "../../src/shared/atomic-write.js";
import { useTempDir } from "../harness/temp-files.js";
import { userError } from "../helpers/user-error.js";

const root = useTempDir("recollect-atomic-");
let folders = 0;
/** A fresh folder, so that what a test leaves behind in it is all its own. */
const folder = () => {
  const dir = root.path(`case-${folders++}`);
  fs.mkdirSync(dir);
  return dir;
};
const content = "x".repeat(100_000);
const errno = (code: string) => Object.assign(new Error(`${code}: from the test`), { code });

/** The real file system, but with `writeSync` replaced. */
const withWrite = (writeSync: (fd: number, bytes: Buffer, offset: number, length: number) => number): AtomicWriteFs => ({
  ...fs,
  writeSync: writeSync as AtomicWriteFs["writeSync"],
});
/** A disk with `room` bytes left: writes take what fits, then fail with ENOSPC. */
const diskWithRoom = (room: number) => {
  let left = room;
  return withWrite((fd, bytes, offset, length) => {
    if (left === 0) throw errno("ENOSPC");
    const written = fs.writeSync(fd, bytes, offset, Math.min(length, left));
    left -= written;
    return written;
  });
};

describe("writeFileAtomicSync", () => {
  it("writes the whole file, creating its folders, and leaves nothing beside it", () => {
    const dir = folder();
    const file = join(dir, "a/b/out.txt");
    writeFileAtomicSync(file, content);
    expect(fs.readFileSync(file, "utf8")).toBe(content);
    expect(fs.readdirSync(join(dir, "a/b"))).toEqual(["out.txt"]);
  });

  it("replaces a file whole, keeping its permissions", () => {
    const file = join(folder(), "out.txt");
    fs.writeFileSync(file, "old");
    fs.chmodSync(file, 0o640);
    writeFileAtomicSync(file, Buffer.from("new"));
    expect(fs.readFileSync(file, "utf8")).toBe("new");
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
  });

  it("writes through a symbolic link to the file it names, and keeps the link", () => {
    const dir = folder();
    fs.writeFileSync(join(dir, "real.txt"), "old");
    fs.symlinkSync("real.txt", join(dir, "link.txt"));
    writeFileAtomicSync(join(dir, "link.txt"), "new");
    expect(fs.lstatSync(join(dir, "link.txt")).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(join(dir, "real.txt"), "utf8")).toBe("new");
  });

  it("goes on after a short write until every byte is down", () => {
    const file = join(folder(), "out.txt");
    const calls: number[] = [];
    writeFileAtomicSync(
      file,
      content,
      withWrite((fd, bytes, offset, length) => {
        calls.push(offset);
        return fs.writeSync(fd, bytes, offset, Math.min(length, 4096));
      }),
    );
    expect(fs.readFileSync(file, "utf8")).toBe(content);
    expect(calls.length).toBe(Math.ceil(content.length / 4096));
  });

  describe("on a full disk, names the file in one line and leaves it complete or absent", () => {
    it.each([
      ["a disk with some room left, which takes part of the file", () => diskWithRoom(10_000)],
      ["a disk with no room at all", () => diskWithRoom(0)],
      ["a write that takes no bytes and reports no error", () => withWrite(() => 0)],
    ])("%s", (_name, io) => {
      const dir = folder();
      const file = join(dir, "new.txt");
      expect(userError(() => writeFileAtomicSync(file, content, io())).message).toBe(`${file}: cannot be written (no space left on the device)`);
      expect(fs.readdirSync(dir)).toEqual([]);

      const kept = join(dir, "kept.txt");
      fs.writeFileSync(kept, "the previous content");
      userError(() => writeFileAtomicSync(kept, content, io()));
      expect(fs.readFileSync(kept, "utf8")).toBe("the previous content");
      expect(fs.readdirSync(dir)).toEqual(["kept.txt"]);
    });
  });

  it.each([
    ["fsyncSync", "EIO", "input/output error"],
    ["closeSync", "EDQUOT", "the disk quota is used up"],
    ["renameSync", "EACCES", "permission denied"],
  ] as const)("when %s fails with %s, says so and removes the temporary file", (call, code, words) => {
    const dir = folder();
    const file = join(dir, "out.txt");
    let failed = false;
    const io: AtomicWriteFs = {
      ...fs,
      [call]: (...args: unknown[]) => {
        // Fails once: the descriptor is closed for real when the write is abandoned.
        if (!failed) {
          failed = true;
          throw errno(code);
        }
        return (fs[call] as (...a: unknown[]) => unknown)(...args);
      },
    };
    expect(userError(() => writeFileAtomicSync(file, content, io)).message).toBe(`${file}: cannot be written (${words})`);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("lets an error that is not the system's through as it is, still removing the temporary file", () => {
    const dir = folder();
    const bug = new TypeError("a bug");
    expect(() =>
      writeFileAtomicSync(
        join(dir, "out.txt"),
        content,
        withWrite(() => {
          throw bug;
        }),
      ),
    ).toThrow(bug);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("names the file when its folder cannot be made", () => {
    const dir = folder();
    fs.writeFileSync(join(dir, "plain"), "");
    const file = join(dir, "plain/out.txt");
    expect(userError(() => writeFileAtomicSync(file, content)).message).toBe(`${file}: cannot be written (a part of the path is a file, not a directory)`);
  });
});

/**
 * A real full disk: a 64 KiB tmpfs. Mounting one needs root and a kernel that allows it (not
 * every container does), so elsewhere this is skipped, and the injected failures above stand in.
 */
function smallDisk(): { dir: string } | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: "mounting a small tmpfs needs root" };
  const dir = root.path("tmpfs");
  fs.mkdirSync(dir);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    return { skip: `mount -t tmpfs failed here (${String((error as Error).message).split("\n")[0]})` };
  }
  afterAll(() => execFileSync("umount", [dir]));
  return { dir };
}
const DISK = smallDisk();

describe("on a real full disk", () => {
  it("fails naming the file, leaving it absent and no temporary file, while what fits is written whole", (context) => {
    if ("skip" in DISK) return context.skip(DISK.skip);
    const fits = join(DISK.dir, "fits.txt");
    writeFileAtomicSync(fits, "y".repeat(40_000));
    const file = join(DISK.dir, "too-big.txt");
    expect(userError(() => writeFileAtomicSync(file, content)).message).toBe(`${file}: cannot be written (no space left on the device)`);
    expect(fs.readdirSync(DISK.dir)).toEqual(["fits.txt"]);
    expect(fs.readFileSync(fits, "utf8")).toBe("y".repeat(40_000));
    // Replacing a file when there is no room for the new one leaves the old one as it was.
    expect(userError(() => writeFileAtomicSync(fits, content)).message).toBe(`${fits}: cannot be written (no space left on the device)`);
    expect(fs.readFileSync(fits, "utf8")).toBe("y".repeat(40_000));
    expect(fs.readdirSync(DISK.dir)).toEqual(["fits.txt"]);
  });
});

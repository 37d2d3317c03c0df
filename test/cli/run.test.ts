import { realpathSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.js";
import { useTempDir } from "../harness/temp-files.js";

/** A run's streams, which keep what is written to them. */
function io(cwd: string, env: Record<string, string | undefined> = {}) {
  const written = { stdout: "", stderr: "" };
  const keep = (into: "stdout" | "stderr") =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        written[into] += chunk.toString();
        done();
      },
    });
  return { io: { cwd, env, stdout: keep("stdout"), stderr: keep("stderr"), stdin: Readable.from([]) }, written };
}

/** Everything that a run could leave behind in the process. */
const processState = () => ({ cwd: process.cwd(), exitCode: process.exitCode, sigint: process.listenerCount("SIGINT") });

describe("runCli, the one entry of the binary and of the tests", () => {
  const folder = useTempDir("recollect-run-");

  it("prints the help for no command, and for --help, to its own standard output, and returns 0", async () => {
    for (const argv of [[], ["--help"]]) {
      const { io: streams, written } = io(folder.dir);
      expect(await runCli(argv, streams)).toBe(0);
      expect(written.stdout).toMatch(/^recollect <command> \[options\]\n/);
      expect(written.stdout).toContain("recollect merge <shards..>");
      expect(written.stderr).toBe("");
    }
  });

  it("returns 2 for a refused input, with one line on its own standard error, and sets no exit code on the process", async () => {
    const before = processState();
    const { io: streams, written } = io(folder.dir);
    expect(await runCli(["experiment", "--workers", "0"], streams)).toBe(2);
    expect(written).toEqual({ stdout: "", stderr: 'recollect: --workers expects a whole number of at least 1, got "0"\n' });
    expect(processState()).toEqual(before);
  });

  it("reads the paths it is given in its working folder, and leaves the process in its own", async () => {
    const before = processState();
    folder.write("experiments/empty.yaml", "");
    const { io: streams, written } = io(folder.dir);
    expect(await runCli(["experiment", "experiments/empty.yaml"], streams)).toBe(2);
    expect(written.stderr).toBe("recollect: experiments/empty.yaml: is empty (0 bytes), not an experiment or scenario file\n");
    expect(processState()).toEqual(before);
    expect(realpathSync(process.cwd())).not.toBe(realpathSync(folder.dir));
  });

  it("reads the environment it is given, not the process's", async () => {
    const { io: streams, written } = io(folder.dir, { JOB_COMPLETION_INDEX: "1" });
    expect(await runCli(["experiment", "--shard", "auto"], streams)).toBe(2);
    expect(written.stderr).toBe(
      "recollect: --shard auto: JOB_COMPLETION_INDEX is set but JOB_COMPLETIONS is not; a Kubernetes Indexed Job sets both (see examples/kubernetes/)\n",
    );
  });

  const bare = useTempDir("recollect-run-");

  it("releases Ctrl-C when a long command ends, however it ends", async () => {
    const before = processState();
    const { io: streams, written } = io(bare.dir);
    // Run from a folder without experiments/, the command is refused inside its progress.
    expect(await runCli(["check"], streams)).toBe(2);
    expect(written.stderr).toMatch(/^recollect: no experiment file named/);
    expect(processState()).toEqual(before);
  });
});

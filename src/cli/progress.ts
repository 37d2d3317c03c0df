import cliProgress from "cli-progress";

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/** A bar on a terminal; elsewhere (CI, pipes) a plain line at every tenth of the way. */
export function progress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {value}/{total} trials · {duration}s`, stream, hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(done, total) {
        if (!started) {
          bar.start(total, done);
          started = true;
        } else bar.update(done);
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastTenth = -1;
  return {
    update(done, total) {
      const tenth = total === 0 ? 10 : Math.floor((10 * done) / total);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(`${label}: ${done}/${total} trials\n`);
    },
    stop() {},
  };
}

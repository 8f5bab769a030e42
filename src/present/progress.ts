import cliProgress from "cli-progress";

// Every progress display of the CLI: bars for counted work, and a redrawn block of status lines
// for run groups (local and queued), whose per-run lines share gradingText.

/** A progress bar on stderr when it is a terminal (and not silenced); a no-op otherwise. */
export function progressBar(label: string, quiet = false) {
  if (quiet || !process.stderr.isTTY) return { update: (_done: number, _total: number) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} {eta_formatted} left`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done: number, total: number) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/**
 * A block of status lines kept at the bottom of a terminal's stderr and redrawn in place (every second once
 * started), with one-off lines printed above it. Off a terminal nothing is drawn and lines are simply printed;
 * disabled, nothing is written at all.
 */
export function liveBlock(enabled: boolean, render: () => string[]) {
  const tty = enabled && process.stderr.isTTY === true;
  let drawn = 0;
  let timer: NodeJS.Timeout | null = null;
  const clear = () => (drawn > 0 ? `\x1b[${drawn}F\x1b[J` : "");
  const draw = () => {
    const lines = render();
    process.stderr.write(clear() + lines.join("\n") + "\n");
    drawn = lines.length;
  };
  return {
    tty,
    /** Print a line above the block (the block is drawn again on the next draw()). */
    say(line: string) {
      if (!enabled) return;
      if (tty) {
        process.stderr.write(clear());
        drawn = 0;
      }
      process.stderr.write(line + "\n");
    },
    /** Redraw the block now (terminals only). */
    draw() {
      if (tty) draw();
    },
    /** Keep redrawing every second (elapsed times move on). */
    start() {
      if (tty && timer === null) timer = setInterval(draw, 1000);
    },
    /** Stop redrawing, leaving the last block on screen. */
    stop() {
      if (timer) clearInterval(timer);
      if (tty && drawn > 0) draw();
    },
  };
}

/** The score part of a finished run's line: ", score 0.81 (medal)", ", score invalid", or "" when ungraded. */
export function gradingText(grading: { score: number | null; any_medal: boolean } | null | undefined): string {
  return grading ? `, score ${grading.score ?? "invalid"}${grading.any_medal ? " (medal)" : ""}` : "";
}

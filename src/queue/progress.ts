import { gradingText, liveBlock } from "../present/progress.js";
import { formatDuration } from "../sandbox/limits.js";
import type { RunState } from "./state.js";

const label = (s: RunState) => `${s.competition_id} seed ${s.seed}`;

/** One line for a run whose state changed, or null when nothing worth saying happened. */
export function changeLine(prev: RunState | undefined, cur: RunState): string | null {
  if (prev && prev.state === cur.state && prev.attempts === cur.attempts) return null;
  if (!prev && cur.state === "queued") return null;
  switch (cur.state) {
    case "running":
      return `running ${label(cur)} on ${cur.worker ?? "?"} (attempt ${cur.attempts}, ${cur.run_id})`;
    case "completed": {
      const r = cur.record;
      return `completed ${label(cur)}${cur.worker ? ` on ${cur.worker}` : ""}: ${r?.exit_reason ?? "-"}${gradingText(r?.grading)}`;
    }
    case "failed":
      return `failed ${label(cur)} after ${cur.attempts} attempt(s): ${cur.reason ?? "-"}`;
    case "queued":
      return prev?.state === "running" ? `requeued ${label(cur)} (attempt ${prev.attempts} did not finish${cur.reason ? `: ${cur.reason}` : ""})` : null;
    case "missing":
      return `re-enqueued ${label(cur)} (its job was not in Redis)`;
  }
}

/** Counts per state, as one summary line. */
export function summaryLine(states: RunState[]): string {
  const n = (k: RunState["state"]) => states.filter((s) => s.state === k).length;
  const done = n("completed") + n("failed");
  return `runs: ${done}/${states.length} done, ${n("running")} running, ${n("queued") + n("missing")} queued, ${n("failed")} failed`;
}

/**
 * Live view of a queued run group on stderr, in the style of a local run's: a redrawn block on a
 * terminal (counts, then each running run with its worker and elapsed time); one line per change otherwise.
 */
export function queueProgressView(enabled: boolean) {
  let last = new Map<string, RunState>();
  const block = liveBlock(enabled, () => {
    const now = Date.now();
    const states = [...last.values()];
    const lines = [summaryLine(states)];
    for (const s of states.filter((x) => x.state === "running")) {
      const elapsed = s.started_at_ms ? `: ${formatDuration(Math.max(0, now - s.started_at_ms))} elapsed` : "";
      lines.push(`  ${label(s)} on ${s.worker ?? "?"}${elapsed}`);
    }
    return lines;
  });

  return {
    /** The group is known: where it is and how many runs it has. */
    planned(groupDir: string, queueDisplay: string, states: RunState[]) {
      const done = states.filter((s) => s.state === "completed" || s.state === "failed").length;
      block.say(`run group: ${groupDir} (${states.length} runs on ${queueDisplay}${done > 0 ? `, ${done} already finished` : ""})`);
      // Runs already running are shown; runs already finished are only counted in the line above.
      last = new Map(states.filter((s) => s.state !== "running").map((s) => [s.run_id, s]));
      this.update(states);
      block.start();
    },
    /** New states of every run; prints what changed. */
    update(states: RunState[]) {
      for (const s of states) {
        const line = changeLine(last.get(s.run_id), s);
        if (line) block.say(line);
      }
      last = new Map(states.map((s) => [s.run_id, s]));
      block.draw();
    },
    say: block.say,
    stop: block.stop,
  };
}

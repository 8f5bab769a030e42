import type { GroupEvent } from "../runner/group.js";
import type { RunRecord } from "../results/record.js";
import type { RunProgress } from "../runner/run.js";
import { gradingText, liveBlock } from "../present/progress.js";
import { formatDuration } from "../sandbox/limits.js";

/**
 * Live view of a run group on stderr: a redrawn block on a terminal (done/running/failed and,
 * per running run, elapsed and time left); one line per start and end otherwise.
 */
export function runProgressView(enabled: boolean) {
  const running = new Map<string, { label: string; progress: RunProgress }>();
  let total = 0;
  let finished = 0;
  let failed = 0;
  const block = liveBlock(enabled, () => {
    const now = Date.now();
    const lines = [`runs: ${finished}/${total} done, ${running.size} running, ${failed} failed`];
    for (const { label, progress } of running.values()) {
      const left = Number.isFinite(progress.deadline) ? `, ${formatDuration(Math.max(0, progress.deadline - now))} left` : "";
      lines.push(`  ${label}: ${formatDuration(now - progress.startedAt)} elapsed${left}`);
    }
    return lines;
  });
  const say = (line: string) => {
    block.say(line);
    block.draw();
  };

  return {
    onEvent(e: GroupEvent) {
      if (e.type === "planned") {
        total = e.total;
        finished = e.skipped;
        say(`run group: ${e.groupDir}${e.skipped > 0 ? ` (${e.skipped} finished runs kept)` : ""}`);
        block.start();
      } else if (e.type === "start") {
        const label = `${e.task.competition.id} seed ${e.task.seed}`;
        running.set(e.task.runId, { label, progress: e.progress });
        say(`started ${label} (${e.task.runId})`);
      } else if (e.type === "end") {
        running.delete(e.task.runId);
        finished++;
        if (e.record.status !== "completed") failed++;
        const r = e.record;
        say(`${r.status} ${e.task.competition.id} seed ${e.task.seed}: ${r.exit_reason ?? r.error ?? "-"}${gradingText(r.grading)}`);
      }
    },
    stop() {
      block.stop();
    },
  };
}

/** One run in the `--json` summary of `mlebench run` (local or queued). */
export function summaryRow(r: Pick<RunRecord, "run_id" | "competition_id" | "seed" | "exit_reason" | "grading" | "error"> & { status: string }) {
  return {
    run_id: r.run_id,
    competition_id: r.competition_id,
    seed: r.seed,
    status: r.status,
    exit_reason: r.exit_reason,
    score: r.grading?.score ?? null,
    any_medal: r.grading?.any_medal ?? null,
    error: r.error,
  };
}

import type { Command } from "commander";
import { Queue } from "bullmq";
import { QUEUE_NAME } from "../queue/jobs.js";
import { checkReachable } from "../queue/producer.js";
import { summaryLine } from "../queue/progress.js";
import { groupFinished, groupState, refreshMetadata } from "../queue/state.js";
import { locateGroup, requireGroup } from "../queue/store.js";
import { connectionOptions, parseRedisUrl } from "../queue/url.js";
import { action } from "./common.js";
import { summaryOf } from "./command-help.js";

interface StatusFlags {
  queue?: string;
  runsDir: string;
  json?: boolean;
}

/** `mlebench status`: where each run of a group stands (queued, running on which worker, done, failed). */
export function register(program: Command): void {
  program
    .command("status")
    .summary(summaryOf("status"))
    .description(
      "Show each run of a run group: queued, running (on which worker), completed or failed (with the reason). With --queue " +
        "the state comes from Redis and the published runs; without it, from the published runs only. Once every run has " +
        "ended, what lost workers left staged is removed. Exits 0 when every " +
        "run completed, 1 when some failed, 3 while runs are still queued or running.",
    )
    .argument("<group>", "the run group: its dir, its s3://bucket[/prefix]/<group> URL, or its name under --runs-dir")
    .option("--queue <url>", "Redis the group was enqueued on: redis://[user:password@]host:port[/db]")
    .option("--runs-dir <dir>", "where to look for a group given by name (a dir or s3://bucket[/prefix])", "runs")
    .option("--json", "print the states as JSON on stdout")
    .action(
      action(async (group: string, flags: StatusFlags) => {
        const { store, group: name } = await locateGroup(group, flags.runsDir, {}, "status");
        const meta = await requireGroup(store, name, "status");
        const where = store.location(name);
        let queue: Queue | null = null;
        if (flags.queue !== undefined) {
          const url = parseRedisUrl(flags.queue);
          await checkReachable(url);
          queue = new Queue(QUEUE_NAME, { connection: connectionOptions(url) });
        }
        let states;
        try {
          states = await groupState(store, meta, queue);
        } finally {
          await queue?.close();
        }
        await refreshMetadata(store, meta, states);
        if (groupFinished(states)) await store.sweep(name);
        if (flags.json) {
          const runs = states.map(({ record, started_at_ms, ...s }) => ({
            ...s,
            started_at: started_at_ms === null ? null : new Date(started_at_ms).toISOString(),
            exit_reason: record?.exit_reason ?? null,
            score: record?.grading?.score ?? null,
          }));
          process.stdout.write(JSON.stringify({ run_group: meta.run_group, dir: where, finished: groupFinished(states), runs }, null, 2) + "\n");
        } else {
          process.stdout.write(`${where}\n${summaryLine(states)}\n`);
          for (const s of states) {
            const who = s.worker ? ` on ${s.worker}` : "";
            const why = s.state === "failed" && s.reason ? `: ${s.reason}` : s.record?.exit_reason ? `: ${s.record.exit_reason}` : "";
            process.stdout.write(`  ${s.state.padEnd(9)} ${s.competition_id} seed ${s.seed}${who} (attempts ${s.attempts}, ${s.run_id})${why}\n`);
          }
        }
        if (!groupFinished(states)) return 3;
        return states.some((s) => s.state !== "completed") ? 1 : 0;
      }),
    );
}

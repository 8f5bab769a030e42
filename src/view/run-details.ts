/** The parts of a run's page computed from several records: integrity flags, timeline, trajectory, snapshots. */
import path from "node:path";
import { readIntegrityFlags } from "../integrity/flags.js";
import { readDisqualification } from "../integrity/disqualify.js";
import type { Flag } from "../integrity/types.js";
import type { RunRecord } from "../results/record.js";
import type { ViewGroup, ViewRun } from "./groups.js";
import { runRecords } from "./data.js";
import { aideTree, researchSteps } from "./trajectory.js";
import { buildTimeline, zoneOffsetMs, type Timeline } from "./timeline.js";
import type { SnapshotScorer, SnapshotView } from "./snapshots.js";

/** Integrity flags recorded for a run, and its disqualification if any. */
export interface RunIntegrity {
  flags: Flag[];
  disqualified: { reasons: string[]; at: string } | null;
  problem: string | null;
}

/** The run's integrity flags and disqualification (an unreadable record is named, not fatal). */
export function runIntegrity(g: ViewGroup, task: ViewRun): RunIntegrity {
  if (g.kind !== "mle") return { flags: [], disqualified: null, problem: null };
  const runDir = path.join(g.dir, task.run_id);
  const flags = readIntegrityFlags(runDir);
  try {
    return { flags, disqualified: readDisqualification(runDir), problem: null };
  } catch (e) {
    return { flags, disqualified: null, problem: (e as Error).message };
  }
}

/** The run's merged timeline. */
export function runTimeline(g: ViewGroup, task: ViewRun): Timeline {
  const runDir = path.join(g.dir, task.run_id);
  const v = runRecords(g, task);
  return buildTimeline({
    runDir,
    record: v.record,
    manifest: v.manifest,
    aide: g.kind === "mle" ? aideTree(runDir) : null,
    steps: researchSteps(runDir, g.kind),
  });
}

/** The run's snapshots with their would-be grades (MLE-bench runs only; research runs have none). */
export async function runSnapshots(g: ViewGroup, task: ViewRun, scorer: SnapshotScorer): Promise<SnapshotView[]> {
  if (g.kind !== "mle") return [];
  const v = runRecords(g, task);
  const rec = v.record as RunRecord | null;
  return rec ? scorer.snapshots(path.join(g.dir, task.run_id), rec, zoneOffsetMs(rec.ended_at, v.manifest?.created_at)) : [];
}

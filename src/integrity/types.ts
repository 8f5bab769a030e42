/** What every integrity check shares: the runs of a group it looks at, and the flag it raises. */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import { isRealDirectory, readRegularText } from "../io/untrusted.js";
import { RunRecordSchema } from "../results/record.js";

/** One run folder of an MLE-bench run group. */
export interface RunDir {
  dir: string;
  runId: string;
  competitionId: string;
  agentId: string;
}

/** run.json is a few KiB; anything near this is not one. */
const MAX_RUN_JSON_BYTES = 16 * 1024 * 1024;

/** The run folder's run.json, or null when it is missing, not a regular file (a link, a FIFO), too large or not a run record. */
function readRunDir(dir: string): RunDir | null {
  const text = readRegularText(path.join(dir, "run.json"), MAX_RUN_JSON_BYTES);
  if (text === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = RunRecordSchema.safeParse(data);
  if (!parsed.success) return null;
  return { dir, runId: parsed.data.run_id, competitionId: parsed.data.competition_id, agentId: parsed.data.agent_id };
}

/**
 * Every run folder of `groupDir` with a readable run.json, in name order; a UserError when the group has none.
 * A folder that is a symbolic link, or whose run.json is not a plain readable record, is not a run.
 */
export function listRuns(groupDir: string): RunDir[] {
  if (!fs.existsSync(groupDir) || !fs.statSync(groupDir).isDirectory()) throw new UserError(`${groupDir} is not a run group directory`);
  const runs: RunDir[] = [];
  for (const name of fs.readdirSync(groupDir).sort()) {
    const dir = path.join(groupDir, name);
    if (!isRealDirectory(dir)) continue;
    const run = readRunDir(dir);
    if (run) runs.push(run);
  }
  if (runs.length === 0) throw new UserError(`${groupDir} holds no runs (no <run>/run.json): is it a directory made by \`mlebench run\`?`);
  return runs;
}

/** The verdict of one check on one run: flagged or not, why, and what shows it. */
export interface Flag {
  run: string;
  check: string;
  flagged: boolean;
  reason: string;
  evidence: string[];
}

/** What every integrity check shares: the runs of a group it looks at, and the flag it raises. */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import { RunRecordSchema } from "../runner/record.js";

/** One run folder of an MLE-bench run group. */
export interface RunDir {
  dir: string;
  runId: string;
  competitionId: string;
  agentId: string;
}

/** Every run folder of `groupDir` with a readable run.json, in name order; a UserError when the group has none. */
export function listRuns(groupDir: string): RunDir[] {
  if (!fs.existsSync(groupDir) || !fs.statSync(groupDir).isDirectory()) throw new UserError(`${groupDir} is not a run group directory`);
  const runs: RunDir[] = [];
  for (const name of fs.readdirSync(groupDir).sort()) {
    const dir = path.join(groupDir, name);
    const file = path.join(dir, "run.json");
    if (!fs.existsSync(file)) continue;
    const parsed = RunRecordSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    if (!parsed.success) continue;
    runs.push({ dir, runId: parsed.data.run_id, competitionId: parsed.data.competition_id, agentId: parsed.data.agent_id });
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

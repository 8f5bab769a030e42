/**
 * The run groups a viewer serves: each root is a group dir or a runs dir whose children are groups.
 * A group is an MLE-bench run group (metadata.json, written by `mlebench run`) or an MLAgentBench
 * research group (group.json, written by `mlebench tasks run`). Every group gets a URL-safe id, and
 * runs are addressed by the ids its record lists, never by a path taken from a request.
 */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import { readGroupMetadata, type GroupMetadata } from "../results/record.js";
import { readResearchGroupRecord, type ResearchGroupRecord } from "../results/research-group.js";
import { runDirName } from "../mlagentbench/eval/layout.js";
import { urlSafe } from "../results/url-id.js";

/** One run of a group: its folder name in the group, what it worked on and its seed. */
export interface ViewRun {
  run_id: string;
  /** The competition (MLE-bench) or the research task (MLAgentBench). */
  competition_id: string;
  seed: number;
}

/** A group the viewer knows: its id in URLs, its folder, its kind and its runs. */
export interface ViewGroup {
  id: string;
  dir: string;
  kind: "mle" | "research";
  /** The group's own name (its folder name as the record gives it). */
  name: string;
  agent_id: string;
  created_at: string;
  runs: ViewRun[];
  /** The MLE-bench group's metadata; null for a research group. */
  meta: GroupMetadata | null;
}

function groupFile(dir: string): "mle" | "research" | null {
  if (fs.existsSync(path.join(dir, "metadata.json"))) return "mle";
  if (fs.existsSync(path.join(dir, "group.json"))) return "research";
  return null;
}


function mleGroup(dir: string, meta: GroupMetadata): Omit<ViewGroup, "id"> {
  return {
    dir,
    kind: "mle",
    name: meta.run_group,
    agent_id: meta.agent_id,
    created_at: meta.created_at,
    runs: meta.tasks.map((t) => ({ run_id: t.run_id, competition_id: t.competition_id, seed: t.seed })),
    meta,
  };
}

function researchGroup(dir: string, rec: ResearchGroupRecord): Omit<ViewGroup, "id"> {
  return {
    dir,
    kind: "research",
    name: rec.id,
    agent_id: rec.model ? `${rec.agent} (${rec.model})` : rec.agent,
    created_at: rec.created_at,
    runs: rec.tasks.flatMap((task) => rec.seeds.map((seed) => ({ run_id: runDirName(task, seed), competition_id: task, seed }))),
    meta: null,
  };
}

/**
 * The groups under `roots`, read now; a root that is neither a group nor holds any is an error
 * naming it. Groups whose record cannot be read are reported through `warn` and left out.
 */
export function findGroups(roots: string[], warn: (m: string) => void): ViewGroup[] {
  const dirs: string[] = [];
  for (const root of roots) {
    const abs = path.resolve(root);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      throw new UserError(`${root} does not exist (expected a run group dir or a runs dir)`);
    }
    if (!st.isDirectory()) throw new UserError(`${root} is not a folder (expected a run group dir or a runs dir)`);
    if (groupFile(abs)) {
      dirs.push(abs);
      continue;
    }
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch (e) {
      throw new UserError(`cannot read ${root}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const children = entries
      .filter((e) => e.isDirectory() && groupFile(path.join(abs, e.name)) !== null)
      .map((e) => path.join(abs, e.name))
      .sort();
    if (children.length === 0) throw new UserError(`${root} holds no run group (no metadata.json or group.json in it or in its folders)`);
    dirs.push(...children);
  }
  const used = new Set<string>();
  const groups: ViewGroup[] = [];
  for (const dir of dirs) {
    let g: Omit<ViewGroup, "id"> | null = null;
    try {
      if (groupFile(dir) === "mle") {
        const meta = readGroupMetadata(dir);
        if (meta) g = mleGroup(dir, meta);
      } else g = researchGroup(dir, readResearchGroupRecord(path.join(dir, "group.json")));
    } catch (e) {
      warn((e as Error).message);
      continue;
    }
    if (!g) continue;
    const base = urlSafe(path.basename(dir));
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}-${i}`;
    used.add(id);
    groups.push({ id, ...g });
  }
  return groups;
}

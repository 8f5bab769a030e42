/**
 * The run groups a viewer serves: each root is a group dir (it has metadata.json) or a runs dir
 * whose children are groups. Every group gets a URL-safe id, and runs are addressed by the ids its
 * metadata lists, never by a path taken from a request.
 */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";
import { readGroupMetadata, type GroupMetadata } from "../results/record.js";

/** A group the viewer knows: its id in URLs, its folder and its metadata. */
export interface ViewGroup {
  id: string;
  dir: string;
  meta: GroupMetadata;
}

function isGroup(dir: string): boolean {
  return fs.existsSync(path.join(dir, "metadata.json"));
}

/** A name fit for a URL segment: what is not a letter, digit, dot, dash or underscore becomes "_". */
function urlSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_") || "_";
}

/**
 * The groups under `roots`, read now; a root that is neither a group nor holds any is an error
 * naming it. Groups whose metadata cannot be read are reported through `warn` and left out.
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
    if (isGroup(abs)) {
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
      .filter((e) => e.isDirectory() && isGroup(path.join(abs, e.name)))
      .map((e) => path.join(abs, e.name))
      .sort();
    if (children.length === 0) throw new UserError(`${root} holds no run group (no metadata.json in it or in its folders)`);
    dirs.push(...children);
  }
  const used = new Set<string>();
  const groups: ViewGroup[] = [];
  for (const dir of dirs) {
    let meta: GroupMetadata | null;
    try {
      meta = readGroupMetadata(dir);
    } catch (e) {
      warn((e as Error).message);
      continue;
    }
    if (!meta) continue;
    const base = urlSafe(path.basename(dir));
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}-${i}`;
    used.add(id);
    groups.push({ id, dir, meta });
  }
  return groups;
}

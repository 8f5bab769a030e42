import fs from "node:fs";
import path from "node:path";

/** Raised for any path the agent may not touch; the message is the observation text after "EnvError: ". */
export class EnvError extends Error {
  override name = "EnvError";
}

/** A workspace path resolved for use: `rel` is normalised and relative (POSIX), `abs` is the host path. */
export interface ResolvedPath {
  rel: string;
  abs: string;
}

/**
 * Resolve an agent-given path inside the workspace. Absolute paths, paths whose normal form leaves
 * the workspace, and paths that a symlink carries outside it are refused, so the only way out of the
 * workspace is closed whatever spelling the agent uses.
 */
export function resolveInWorkspace(workspaceReal: string, given: string): ResolvedPath {
  const outside = new EnvError(`cannot access file ${given} because it is not in the work directory.`);
  if (given.includes("\0") || path.isAbsolute(given)) throw outside;
  const joined = path.resolve(workspaceReal, given);
  if (!inside(workspaceReal, joined)) throw outside;
  let real: string;
  try {
    real = realOfDeepestExisting(joined);
  } catch {
    throw outside;
  }
  if (!inside(workspaceReal, real)) throw outside;
  const rel = path.relative(workspaceReal, real).split(path.sep).join("/");
  return { rel: rel === "" ? "." : rel, abs: real };
}

function inside(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/** The real path of `p`, following symlinks through the part of it that exists (a new file's parent, say). */
function realOfDeepestExisting(p: string, depth = 0): string {
  // Symlink loops would otherwise recurse forever; past 40 links the OS gives up too (ELOOP).
  if (depth > 40) throw new Error(`too many levels of symbolic links at ${p}`);
  const rest: string[] = [];
  let cur = p;
  for (;;) {
    try {
      return path.join(fs.realpathSync(cur), ...rest.reverse());
    } catch {
      const parent = path.dirname(cur);
      // A dangling symlink counts as existing: follow it, so that writing through it stays confined.
      const link = readLinkOrNull(cur);
      if (link !== null) return path.join(realOfDeepestExisting(path.resolve(parent, link), depth + 1), ...rest.reverse());
      if (parent === cur) return path.join(cur, ...rest.reverse());
      rest.push(path.basename(cur));
      cur = parent;
    }
  }
}

function readLinkOrNull(p: string): string | null {
  try {
    return fs.readlinkSync(p);
  } catch {
    return null;
  }
}

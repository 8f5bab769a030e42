import { spawnSync } from "node:child_process";
import fs from "node:fs";

/**
 * Remove a file or folder tree, whatever an agent left in it. Node's own removal works by full
 * path, so a tree deeper than PATH_MAX (4096 bytes) fails with ENAMETOOLONG; `rm -rf` walks it
 * descriptor by descriptor and never follows links, so it is used when Node gives up.
 */
export function removeTree(p: string): void {
  try {
    fs.rmSync(p, { recursive: true, force: true });
  } catch (e) {
    const r = spawnSync("rm", ["-rf", "--one-file-system", "--", p], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`cannot remove ${p}: ${(e as Error).message}; rm: ${(r.stderr || r.error?.message || "").trim()}`);
  }
}

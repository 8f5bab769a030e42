import fs from "node:fs/promises";
import path from "node:path";

/** Total size in bytes of the regular files under `dir` (symlinks are not followed). */
export async function dirSize(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0; // vanished or unreadable: the agent's own business
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await dirSize(p);
    else if (e.isFile()) {
      try {
        total += (await fs.lstat(p)).size;
      } catch {
        // removed between readdir and lstat
      }
    }
  }
  return total;
}

/** Change the owner of a tree (without following symlinks), so a sandbox uid can write to it. */
export async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await fs.lchown(dir, uid, gid);
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await chownTree(p, uid, gid);
    else await fs.lchown(p, uid, gid);
  }
}

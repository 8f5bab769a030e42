import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";

/** Change the owner of a tree (without following symlinks), so a sandbox uid can write to it. */
export async function chownTree(dir: string, uid: number, gid: number): Promise<void> {
  await fs.lchown(dir, uid, gid);
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await chownTree(p, uid, gid);
    else await fs.lchown(p, uid, gid);
  }
}

/**
 * Disk the agent holds in `dirs`, where no filesystem of its own counts it: allocated blocks (so
 * a sparse file counts what it really takes) from `du`, which walks any depth and any path length,
 * plus files the agent's processes `pids` deleted but still hold open on the same filesystems.
 */
export async function measureDisk(dirs: string[], pids: number[]): Promise<number> {
  const du = await new Promise<number>((resolve) => {
    execFile("du", ["-s", "-c", "-B1", "--", ...dirs], { timeout: 120_000, maxBuffer: 1 << 20 }, (_err, stdout) => {
      // du still prints its total when some entries could not be read.
      const last = stdout.trim().split("\n").pop() ?? "";
      const n = Number(last.split("\t")[0]);
      resolve(Number.isFinite(n) ? n : 0);
    });
  });
  const devices = new Set<number>();
  for (const d of dirs) {
    try {
      devices.add((await fs.stat(d)).dev);
    } catch {
      // gone
    }
  }
  const seen = new Set<number>();
  let unlinked = 0;
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = await fs.readdir(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      const link = `/proc/${pid}/fd/${fd}`;
      try {
        if (!(await fs.readlink(link)).endsWith(" (deleted)")) continue;
        const st = await fs.stat(link);
        if (!st.isFile() || !devices.has(st.dev) || seen.has(st.ino)) continue;
        seen.add(st.ino);
        unlinked += st.blocks * 512;
      } catch {
        // closed meanwhile
      }
    }
  }
  return du + unlinked;
}

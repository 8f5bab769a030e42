/**
 * A filesystem of its own for a run's writable folders (submission, code, logs, workspace), for a
 * harness running as root: a sparse ext4 image of the run's disk cap, loop-mounted on the host
 * while the run lasts. The kernel then counts everything the agent holds on it (files it deleted
 * but keeps open, paths too long to walk, sparse files by their real blocks) and refuses writes
 * past the image's size; inside the sandbox the folders come from a loop device, so mountinfo
 * names no host path of the run. When the agent is gone the folders are copied into the run dir
 * and the image is removed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { cachedProbe } from "./probe-cache.js";
import { processStart } from "./process.js";
import { WRITABLE_DIRS, type WritableDir } from "./types.js";

/** Root-only home of the mount points; /run is emptied at boot, so nothing outlives the machine. */
export const VOLUME_ROOT = "/run/mlebench/volumes";

/** A run's volume while it is mounted. */
export interface RunVolume {
  /** Host folders of the writable dirs on the volume. */
  dirs: Record<WritableDir, string>;
  /** Bytes the agent holds on the volume now, by the filesystem's own count. */
  used(): number;
  /**
   * Copy every folder into `into` (after the sandbox is closed), then unmount and delete the
   * image. Returns what could not be copied (cp's first complaints), or null.
   */
  finish(into: Record<WritableDir, string>): string | null;
  /** Unmount and delete without copying (a failed run's set-up). */
  discard(): void;
}

function run(argv: string[]): { ok: boolean; text: string } {
  const r = spawnSync(argv[0], argv.slice(1), { encoding: "utf8", timeout: 120_000 });
  return { ok: r.status === 0, text: `${r.stderr ?? ""}${r.error?.message ?? ""}`.trim() };
}

function tool(name: string): string | null {
  for (const dir of ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]) {
    const p = path.join(dir, name);
    if (fs.existsSync(p)) return p;
  }
  return null;
}


const holder = `${process.pid}-${processStart(process.pid) ?? "0"}`;
let seq = 0;

/** Unmount the volumes of harness processes that died without doing it themselves. */
function sweepStale(): void {
  let names: string[];
  try {
    names = fs.readdirSync(VOLUME_ROOT);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^(\d+)-(\d+)-\d+$/.exec(name);
    if (!m || processStart(Number(m[1])) === m[2]) continue;
    const dir = path.join(VOLUME_ROOT, name);
    run(["umount", "-l", dir]);
    try {
      fs.rmdirSync(dir);
    } catch {
      // still mounted or not empty: left for a later sweep
    }
  }
}

let support: string | null | undefined;

/** null when image volumes work here (root, loop devices, mkfs.ext4, mount), else why not; probed once per boot (probe-cache.ts). */
export function volumeUnavailable(): string | null {
  if (support !== undefined) return support;
  if (process.getuid?.() !== 0) return (support = "a disk image per run needs root");
  if (!fs.existsSync("/dev/loop-control")) return (support = "no loop devices here (/dev/loop-control is missing)");
  for (const t of ["mkfs.ext4", "mount", "umount"]) if (tool(t) === null) return (support = `${t} is not installed (Debian: e2fsprogs, mount)`);
  return (support = cachedProbe("image-volume", probeVolume));
}

function probeVolume(): string | null {
  const probe = fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "mlebench-volume-probe-"));
  try {
    const v = createImageVolume(path.join(probe, "probe.img"), 8 << 20);
    fs.writeFileSync(path.join(v.dirs.workspace, "x"), "ok");
    v.discard();
    return null;
  } catch (e) {
    return `a loop-mounted disk image could not be made here (${(e as Error).message})`;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

/** Room for ext4's own tables on top of the cap, so the agent can use all of the cap. */
function imageSize(capBytes: number): number {
  return Math.ceil((capBytes + Math.max(64 << 20, capBytes * 0.06)) / 4096) * 4096;
}

/** Make, format and mount a sparse image at `image` with room for `capBytes` of the agent's files. */
export function createImageVolume(image: string, capBytes: number): RunVolume {
  sweepStale();
  const fd = fs.openSync(image, "wx", 0o600);
  try {
    fs.ftruncateSync(fd, imageSize(capBytes));
  } finally {
    fs.closeSync(fd);
  }
  // No journal (the image is scratch), lazy tables that are never zeroed (noinit_itable below),
  // so the image's real size on the host stays what the agent wrote.
  const mkfs = run([tool("mkfs.ext4")!, "-q", "-F", "-m", "0", "-i", "8192", "-O", "^has_journal", "-E", "lazy_itable_init=1,lazy_journal_init=1,nodiscard", image]);
  if (!mkfs.ok) {
    fs.rmSync(image, { force: true });
    throw new Error(`mkfs.ext4 failed: ${mkfs.text}`);
  }
  fs.mkdirSync(VOLUME_ROOT, { recursive: true, mode: 0o700 });
  const mountpoint = path.join(VOLUME_ROOT, `${holder}-${++seq}`);
  fs.mkdirSync(mountpoint, { mode: 0o700 });
  const mounted = run(["mount", "-o", "loop,nosuid,nodev,noatime,noinit_itable", image, mountpoint]);
  if (!mounted.ok) {
    fs.rmdirSync(mountpoint);
    fs.rmSync(image, { force: true });
    throw new Error(`mounting ${image} failed: ${mounted.text}`);
  }
  let open = true;
  const unmount = () => {
    if (!open) return;
    open = false;
    if (!run(["umount", mountpoint]).ok) run(["umount", "-l", mountpoint]);
    try {
      fs.rmdirSync(mountpoint);
    } catch {
      // a lazy unmount still under way; swept later
    }
    fs.rmSync(image, { force: true });
  };
  try {
    const dirs = Object.fromEntries(WRITABLE_DIRS.map((d) => [d, path.join(mountpoint, d)])) as Record<WritableDir, string>;
    for (const d of Object.values(dirs)) fs.mkdirSync(d, { mode: 0o755 });
    const allocated = () => {
      const s = fs.statfsSync(mountpoint);
      return (s.blocks - s.bfree) * s.bsize;
    };
    const baseline = allocated();
    return {
      dirs,
      used: () => (open ? Math.max(0, allocated() - baseline) : 0),
      finish(into) {
        const problems: string[] = [];
        for (const d of WRITABLE_DIRS) {
          // -a keeps links as links and owners as they are; nothing is followed.
          const cp = run(["cp", "-a", "--sparse=always", `${dirs[d]}/.`, into[d]]);
          if (!cp.ok) problems.push(`${d}/: ${cp.text.split("\n").slice(0, 3).join("; ").slice(0, 600)}`);
        }
        unmount();
        return problems.length > 0 ? problems.join(" | ") : null;
      },
      discard: unmount,
    };
  } catch (e) {
    unmount();
    throw e;
  }
}

/**
 * Staging of a bubblewrap sandbox's read-only mounts, for a harness running as root. Bound
 * directly, every read-only source would be the host's own inode (runs could signal each other
 * through `flock` on /usr or the data dir) and /proc/self/mountinfo would name its host path (the
 * data dir's, hence where the private answers are). Instead each sandbox starts in a private mount
 * namespace where every source directory is bound at a neutral path under the stage folder,
 * covered by a read-only overlay (a filesystem of its own, with inodes of its own), and unbound
 * again; bwrap then binds from the overlays. /dev is a fresh tmpfs with its own device nodes and
 * devpts. All of it disappears with the sandbox's mount namespace.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cachedProbe } from "./probe-cache.js";

/**
 * The shell that builds the stage and then execs bwrap: `sh -c SCRIPT stage DIR ARGV...`. Every
 * mount is one entry of DIR/fstab, made by a single `mount -a` (and its mount points by
 * X-mount.mkdir), because each program the script starts costs milliseconds on every sandbox.
 * The sources' binds all sit under one tmpfs, unmounted at once after the overlays hold them.
 */
const SCRIPT = String.raw`set -eu
S=$1; shift
mount -a -T "$S/fstab"
umount -R "$S/s/binds"
d="$S/s/dev"
mkdir "$d/shm"
mknod -m 666 "$d/null" c 1 3
mknod -m 666 "$d/zero" c 1 5
mknod -m 666 "$d/full" c 1 7
mknod -m 666 "$d/random" c 1 8
mknod -m 666 "$d/urandom" c 1 9
mknod -m 666 "$d/tty" c 5 0
ln -s pts/ptmx "$d/ptmx"
ln -s /proc/self/fd "$d/fd"
ln -s /proc/self/fd/0 "$d/stdin"
ln -s /proc/self/fd/1 "$d/stdout"
ln -s /proc/self/fd/2 "$d/stderr"
exec "$@"
`;

/** Where each read-only source is bound from once staged, and the staged /dev. */
export interface StagePlan {
  /** The stage folder: its fstab, and `s/`, empty on the host and a tmpfs inside each sandbox's mount namespace. */
  dir: string;
  /** Source directories, in the order they are overlaid (overlay i is `<dir>/s/m<i>`). */
  dirs: string[];
  /** The path bwrap binds for a read-only host path (a directory, or a file in one). */
  from(hostPath: string): string;
  /** The staged /dev. */
  dev: string;
}

/** A path as an fstab field: libmount reads space, tab, newline and backslash as octal escapes. */
export function fstabField(p: string): string {
  return p.replace(/[\\ \t\n]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`);
}

/** The fstab `mount -a` reads: the stage tmpfs, a bind of each source, its read-only overlay, then /dev. */
export function stageFstab(dir: string, dirs: readonly string[]): string {
  const s = path.join(dir, "s");
  const line = (what: string, where: string, type: string, options: string) => `${fstabField(what)} ${fstabField(where)} ${type} ${options} 0 0\n`;
  let tab = line("stage", s, "tmpfs", "mode=0700,size=1m");
  tab += line("binds", path.join(s, "binds"), "tmpfs", "mode=0700,size=64k,X-mount.mkdir");
  // An overlay needs two layers when it has no upper one; the second is this empty folder.
  tab += line("empty", path.join(s, "e"), "tmpfs", "ro,mode=0755,size=4k,X-mount.mkdir");
  dirs.forEach((src, i) => {
    tab += line(src, path.join(s, "binds", `l${i}`), "none", "bind,X-mount.mkdir");
    // Neither lowerdir names the source: /proc/self/mountinfo inside shows only stage paths.
    tab += line("overlay", path.join(s, `m${i}`), "overlay", `ro,lowerdir=${path.join(s, "binds", `l${i}`)}:${path.join(s, "e")},X-mount.mkdir`);
  });
  tab += line("dev", path.join(s, "dev"), "tmpfs", "mode=0755,nosuid,size=64k,X-mount.mkdir");
  tab += line("devpts", path.join(s, "dev", "pts"), "devpts", "newinstance,ptmxmode=0666,mode=0620,X-mount.mkdir");
  return tab;
}

/** Overlay every directory that holds (or is) one of `sources`, once each; writes `<dir>/fstab`. */
export function planStage(dir: string, sources: Iterable<string>): StagePlan {
  const index = new Map<string, number>();
  // Each source as bwrap would bind it: links resolved (a relative link makes no sense elsewhere).
  const staged = new Map<string, { base: string; file: string | null }>();
  for (const s of sources) {
    if (staged.has(s)) continue;
    let real: string;
    let isDir: boolean;
    try {
      real = fs.realpathSync(s);
      isDir = fs.statSync(real).isDirectory();
    } catch {
      continue; // missing: bound as given, and bwrap reports it
    }
    const base = isDir ? real : path.dirname(real);
    staged.set(s, { base, file: isDir ? null : path.basename(real) });
    if (!index.has(base)) index.set(base, index.size);
  }
  const dirs = [...index.keys()];
  // Stage paths go unescaped into overlay options, where a comma, colon or space would split them.
  if (!/^[\w./-]+$/.test(dir)) throw new Error(`stage folder ${JSON.stringify(dir)}: expected a path of letters, digits, '.', '_', '-' and '/' (set TMPDIR to such a path)`);
  fs.mkdirSync(path.join(dir, "s"), { recursive: true });
  fs.writeFileSync(path.join(dir, "fstab"), stageFstab(dir, dirs), { mode: 0o600 });
  return {
    dir,
    dirs,
    dev: path.join(dir, "s", "dev"),
    from(hostPath) {
      const s = staged.get(hostPath);
      if (!s) return hostPath;
      const merged = path.join(dir, "s", `m${index.get(s.base)}`);
      return s.file === null ? merged : path.join(merged, s.file);
    },
  };
}

/** The host argv that builds `plan` in a private mount namespace and then runs `argv` (bwrap). */
export function stagedArgv(plan: StagePlan, argv: string[]): string[] {
  return ["/usr/bin/unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", SCRIPT, "stage", plan.dir, ...argv];
}

let support: string | null | undefined;

/** null when staging works here (root, mount namespaces, overlayfs, mknod), else why not; probed once per boot (probe-cache.ts). */
export function stagingUnavailable(): string | null {
  if (support !== undefined) return support;
  if (process.getuid?.() !== 0) return (support = "staging needs root");
  // The name changes with the script, so a success of an older one is not taken for this one's.
  return (support = cachedProbe("overlay-staging/fstab", probeStaging));
}

function probeStaging(): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-stage-probe-"));
  try {
    const src = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-stage-src-"));
    fs.writeFileSync(path.join(src, "f"), "ok");
    const plan = planStage(dir, [src]);
    const [bin, ...args] = stagedArgv(plan, ["/bin/cat", path.join(plan.dir, "s", "m0", "f"), path.join(plan.dev, "null")]);
    const r = spawnSync(bin, args, { encoding: "utf8", timeout: 20_000 });
    fs.rmSync(src, { recursive: true, force: true });
    return r.status === 0 && r.stdout === "ok" ? null : `overlay staging failed here (${(r.stderr || r.error?.message || `exit ${r.status}`).trim()})`;
  } catch (e) {
    return `overlay staging failed here (${(e as Error).message})`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Staging of a bubblewrap sandbox's read-only mounts, for a harness running as root. Bound
 * directly, every read-only source would be the host's own inode (runs could signal each other
 * through `flock` on /usr or the data dir) and /proc/self/mountinfo would name its host path (the
 * data dir's, hence where the private answers are). Instead each command starts in a private mount
 * namespace where every source directory is bound at a neutral path under the stage folder,
 * covered by a read-only overlay (a filesystem of its own, with inodes of its own), and unbound
 * again; bwrap then binds from the overlays. /dev is a fresh tmpfs with its own device nodes and
 * devpts. All of it disappears with the command's mount namespace.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The shell that builds the stage and then execs bwrap: `sh -c SCRIPT stage DIR N SRC_1..SRC_N ARGV...`. */
const SCRIPT = String.raw`set -eu
S=$1; n=$2; shift 2
mount -t tmpfs -o mode=0700,size=1m stage "$S"
mkdir "$S/e" "$S/l"
i=0
while [ "$i" -lt "$n" ]; do
  mkdir "$S/m$i"
  mount --bind "$1" "$S/l"
  mount -t overlay overlay -o "ro,lowerdir=$S/l:$S/e" "$S/m$i"
  umount "$S/l"
  i=$((i + 1)); shift
done
d="$S/dev"
mkdir "$d"
mount -t tmpfs -o mode=0755,nosuid,size=64k dev "$d"
mk() { mknod -m 666 "$d/$1" c "$2" "$3"; }
mk null 1 3; mk zero 1 5; mk full 1 7; mk random 1 8; mk urandom 1 9; mk tty 5 0
mkdir "$d/pts" "$d/shm"
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$d/pts"
ln -s pts/ptmx "$d/ptmx"
ln -s /proc/self/fd "$d/fd"
ln -s /proc/self/fd/0 "$d/stdin"
ln -s /proc/self/fd/1 "$d/stdout"
ln -s /proc/self/fd/2 "$d/stderr"
exec "$@"
`;

/** Where each read-only source is bound from once staged, and the staged /dev. */
export interface StagePlan {
  /** The stage folder (empty on the host; a tmpfs inside each command's mount namespace). */
  dir: string;
  /** Source directories, in the order they are overlaid (overlay i is `<dir>/m<i>`). */
  dirs: string[];
  /** The path bwrap binds for a read-only host path (a directory, or a file in one). */
  from(hostPath: string): string;
  /** The staged /dev. */
  dev: string;
}

/** Overlay every directory that holds (or is) one of `sources`, once each. */
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
  return {
    dir,
    dirs: [...index.keys()],
    dev: path.join(dir, "dev"),
    from(hostPath) {
      const s = staged.get(hostPath);
      if (!s) return hostPath;
      const merged = path.join(dir, `m${index.get(s.base)}`);
      return s.file === null ? merged : path.join(merged, s.file);
    },
  };
}

/** The host argv that builds `plan` in a private mount namespace and then runs `argv` (bwrap). */
export function stagedArgv(plan: StagePlan, argv: string[]): string[] {
  return ["/usr/bin/unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", SCRIPT, "stage", plan.dir, String(plan.dirs.length), ...plan.dirs, ...argv];
}

let support: string | null | undefined;

/** null when staging works here (root, mount namespaces, overlayfs, mknod), else why not; probed once. */
export function stagingUnavailable(): string | null {
  if (support !== undefined) return support;
  if (process.getuid?.() !== 0) return (support = "staging needs root");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-stage-probe-"));
  try {
    const src = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-stage-src-"));
    fs.writeFileSync(path.join(src, "f"), "ok");
    const plan = planStage(dir, [src]);
    const [bin, ...args] = stagedArgv(plan, ["/bin/cat", path.join(plan.dir, "m0", "f"), path.join(plan.dev, "null")]);
    const r = spawnSync(bin, args, { encoding: "utf8", timeout: 20_000 });
    fs.rmSync(src, { recursive: true, force: true });
    support = r.status === 0 && r.stdout === "ok" ? null : `overlay staging failed here (${(r.stderr || r.error?.message || `exit ${r.status}`).trim()})`;
  } catch (e) {
    support = `overlay staging failed here (${(e as Error).message})`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return support;
}

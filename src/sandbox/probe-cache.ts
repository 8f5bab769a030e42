/**
 * Successful probes of what this machine can do (overlay staging, loop-mounted volumes, bwrap),
 * remembered until the next boot in a root-only file, so that each `mlebench` process does not
 * spend a tenth of a second re-proving them. Only successes are kept: a probe that failed runs
 * again next time (after the missing package is installed, say), and a success that stops being
 * true shows up as the real command's own error. Only a harness running as root keeps the file,
 * and it trusts the file only where root owns it and its folder.
 */
import fs from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../core/atomic.js";

/** Root-only home of the file; /run is emptied at boot. */
export const PROBE_DIR = "/run/mlebench";
const FILE = "probes.json";

interface ProbeFile {
  boot: string;
  node: string;
  ok: string[];
}

function bootId(): string | null {
  try {
    return fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
}

/** The probes remembered as working for this boot, or an empty list where the file is absent or not root's own. */
function remembered(dir: string, boot: string): string[] {
  try {
    const d = fs.lstatSync(dir);
    const file = path.join(dir, FILE);
    const f = fs.lstatSync(file);
    if (!d.isDirectory() || d.uid !== 0 || (d.mode & 0o022) !== 0 || !f.isFile() || f.uid !== 0 || (f.mode & 0o022) !== 0) return [];
    const data = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<ProbeFile>;
    if (data.boot !== boot || data.node !== process.version || !Array.isArray(data.ok)) return [];
    return data.ok.filter((x): x is string => typeof x === "string");
  } catch {
    return [];
  }
}

/**
 * The result of `probe` (null: works; else why not), taken from the file when an earlier process
 * of this boot found that `name` works. `name` must say everything the probe depends on (a tool's path, say).
 */
export function cachedProbe(name: string, probe: () => string | null, dir = PROBE_DIR): string | null {
  const boot = process.getuid?.() === 0 ? bootId() : null;
  if (boot === null) return probe();
  if (remembered(dir, boot).includes(name)) return null;
  const why = probe();
  if (why === null) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Read again just before writing: another process may have added its own probes meanwhile.
      const ok = [...new Set([...remembered(dir, boot), name])].sort();
      writeFileAtomic(path.join(dir, FILE), JSON.stringify({ boot, node: process.version, ok } satisfies ProbeFile) + "\n");
    } catch {
      // Not remembered: the next process probes again.
    }
  }
  return why;
}

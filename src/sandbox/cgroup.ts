import fs from "node:fs";
import path from "node:path";

/** Limits a cgroup enforces; null leaves that resource unlimited. */
export interface CgroupLimits {
  memoryBytes: number | null;
  pids: number | null;
  cpus: number | null;
}

/** What the kernel counted for a cgroup. */
export interface CgroupStats {
  memoryPeakBytes: number | null;
  pidsCurrent: number | null;
  pidsPeak: number | null;
  cpuSeconds: number | null;
  oomKills: number | null;
}

/** A cgroup (v1: one directory per controller; v2: one directory) holding a run's processes. */
export interface Cgroup {
  version: 1 | 2;
  /** `cgroup.procs` files a process must be written into to join. */
  procsFiles: string[];
  stats(): CgroupStats;
  /** Kill every process in the cgroup, including ones that left their process group. */
  killAll(signal?: NodeJS.Signals): void;
  destroy(): void;
}

const ROOT = "/sys/fs/cgroup";
const V1_CONTROLLERS = ["memory", "pids", "cpuset", "cpuacct", "freezer"] as const;

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function readNumber(file: string): number | null {
  const t = readText(file);
  if (t === null) return null;
  const n = Number(t.trim());
  return Number.isFinite(n) ? n : null;
}

function readKey(file: string, key: string): number | null {
  const t = readText(file);
  if (t === null) return null;
  const m = new RegExp(`^${key} (\\d+)$`, "m").exec(t);
  return m ? Number(m[1]) : null;
}

/** This process's cgroup path per controller, from /proc/self/cgroup ("" key for v2). */
function ownCgroups(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of (readText("/proc/self/cgroup") ?? "").split("\n")) {
    const m = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!m) continue;
    for (const c of m[1].split(",")) out.set(c.replace(/^name=/, ""), m[2]);
  }
  return out;
}

/** The CPUs of a cpuset list such as "0-3,8", in its order. */
function parseCpus(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(",")) {
    if (!part) continue;
    const [a, b] = part.split("-").map(Number);
    for (let c = a; c <= (b ?? a); c++) cpus.push(c);
  }
  return cpus;
}

/** The first `n` CPUs of a cpuset list such as "0-3,8". */
export function firstCpus(list: string, n: number): string {
  return parseCpus(list).slice(0, n).join(",");
}

/**
 * `n` CPUs of the list `all` for a new run: those the fewest `taken` lists (the cpusets of the
 * runs already there) hold, lowest numbers first among equals, so concurrent runs given `--cpus`
 * spread over the machine instead of all sharing its first CPUs.
 */
export function pickCpus(all: string, n: number, taken: string[]): string {
  const cpus = parseCpus(all);
  const load = new Map(cpus.map((c) => [c, 0]));
  for (const list of taken) {
    for (const c of parseCpus(list)) if (load.has(c)) load.set(c, load.get(c)! + 1);
  }
  const chosen = [...cpus].sort((a, b) => load.get(a)! - load.get(b)! || a - b).slice(0, n);
  return chosen.sort((a, b) => a - b).join(",");
}

/** The cpusets of the harness's cgroups (named mlebench-*) under `parent`: the runs going on now, of any harness process. */
function siblingCpusets(parent: string): string[] {
  let names: string[] = [];
  try {
    names = fs.readdirSync(parent).filter((n) => n.startsWith("mlebench-"));
  } catch {
    return [];
  }
  return names.map((n) => readText(path.join(parent, n, "cpuset.cpus")) ?? "").filter((t) => t.trim() !== "");
}

/** The number of CPUs in a cpuset list. */
export function countCpus(list: string): number {
  return parseCpus(list).length;
}

function write(file: string, value: string): void {
  fs.writeFileSync(file, value);
}

function killPids(procsFile: string, signal: NodeJS.Signals): number {
  const pids = (readText(procsFile) ?? "").split("\n").filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // exited meanwhile
    }
  }
  return pids.length;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * SIGKILL everything listed in `procsFile` until it is empty (a process may fork while the list
 * is read); `around` brackets each round, e.g. to freeze the cgroup so forks cannot outrun it.
 */
function killUntilEmpty(procsFile: string, around: { before(): void; after(): void } = { before() {}, after() {} }): void {
  for (let round = 0; round < 40; round++) {
    around.before();
    const n = killPids(procsFile, "SIGKILL");
    around.after();
    if (n === 0) break;
    sleepSync(25);
  }
}

function createV1(name: string, limits: CgroupLimits): Cgroup {
  const own = ownCgroups();
  const dirs = new Map<string, string>();
  const destroy = () => {
    for (const d of dirs.values()) {
      try {
        fs.rmdirSync(d);
      } catch {
        // still busy or already gone; the kernel frees it when the last process leaves
      }
    }
  };
  try {
    for (const c of V1_CONTROLLERS) {
      const base = path.join(ROOT, c, own.get(c) ?? "/");
      if (!fs.existsSync(base)) continue;
      const dir = path.join(base, name);
      fs.mkdirSync(dir);
      dirs.set(c, dir);
    }
    const mem = dirs.get("memory");
    if (limits.memoryBytes !== null) {
      if (!mem) throw new Error("the memory controller is not mounted");
      write(path.join(mem, "memory.limit_in_bytes"), String(limits.memoryBytes));
      // Without this the limit only covers RAM and a hog would push the host into swap.
      const memsw = path.join(mem, "memory.memsw.limit_in_bytes");
      if (fs.existsSync(memsw)) write(memsw, String(limits.memoryBytes));
    }
    const pids = dirs.get("pids");
    if (limits.pids !== null) {
      if (!pids) throw new Error("the pids controller is not mounted");
      write(path.join(pids, "pids.max"), String(limits.pids));
    }
    const cpuset = dirs.get("cpuset");
    if (cpuset) {
      // A v1 cpuset starts empty and refuses processes until cpus and mems are set.
      const parent = path.dirname(cpuset);
      const all = readText(path.join(parent, "cpuset.effective_cpus")) ?? readText(path.join(parent, "cpuset.cpus")) ?? "";
      const mems = readText(path.join(parent, "cpuset.effective_mems")) ?? readText(path.join(parent, "cpuset.mems")) ?? "0";
      const cpus = limits.cpus === null ? all.trim() : pickCpus(all, limits.cpus, siblingCpusets(parent));
      write(path.join(cpuset, "cpuset.cpus"), cpus);
      write(path.join(cpuset, "cpuset.mems"), mems.trim());
    } else if (limits.cpus !== null) {
      throw new Error("the cpuset controller is not mounted");
    }
  } catch (e) {
    destroy();
    throw e;
  }
  let pidsPeak = 0;
  return {
    version: 1,
    procsFiles: [...dirs.values()].map((d) => path.join(d, "cgroup.procs")),
    stats() {
      const mem = dirs.get("memory");
      const pids = dirs.get("pids");
      const acct = dirs.get("cpuacct");
      const current = pids ? readNumber(path.join(pids, "pids.current")) : null;
      if (current !== null) pidsPeak = Math.max(pidsPeak, current);
      const ns = acct ? readNumber(path.join(acct, "cpuacct.usage")) : null;
      return {
        memoryPeakBytes: mem ? readNumber(path.join(mem, "memory.max_usage_in_bytes")) : null,
        pidsCurrent: current,
        pidsPeak: pids ? pidsPeak : null,
        cpuSeconds: ns === null ? null : ns / 1e9,
        oomKills: mem ? readKey(path.join(mem, "memory.oom_control"), "oom_kill") : null,
      };
    },
    killAll(signal = "SIGKILL") {
      const first = [...dirs.values()][0];
      if (!first) return;
      const procs = path.join(first, "cgroup.procs");
      const freezer = dirs.get("freezer");
      const setFreezer = (state: string) => {
        if (!freezer) return;
        try {
          write(path.join(freezer, "freezer.state"), state);
        } catch {
          // best effort
        }
      };
      if (signal !== "SIGKILL") {
        killPids(procs, signal);
        return;
      }
      // Frozen processes cannot fork, so a fork bomb cannot outrun the kill loop; the signals
      // land when they are thawed.
      killUntilEmpty(procs, { before: () => setFreezer("FROZEN"), after: () => setFreezer("THAWED") });
    },
    destroy,
  };
}

function createV2(name: string, limits: CgroupLimits): Cgroup {
  const own = ownCgroups().get("") ?? "/";
  const parent = path.join(ROOT, own);
  const dir = path.join(parent, name);
  const wanted = ["memory", "pids", "cpuset", "cpu"].filter((c) =>
    (readText(path.join(parent, "cgroup.controllers")) ?? "").split(/\s+/).includes(c),
  );
  try {
    write(path.join(parent, "cgroup.subtree_control"), wanted.map((c) => `+${c}`).join(" "));
  } catch (e) {
    throw new Error(
      `cannot enable controllers in ${parent} (${(e as Error).message}); run inside a delegated cgroup ` +
        `(systemd-run --user --scope -p Delegate=yes ...)`,
    );
  }
  fs.mkdirSync(dir);
  const destroy = () => {
    try {
      fs.rmdirSync(dir);
    } catch {
      // busy or gone
    }
  };
  try {
    if (limits.memoryBytes !== null) {
      write(path.join(dir, "memory.max"), String(limits.memoryBytes));
      if (fs.existsSync(path.join(dir, "memory.swap.max"))) write(path.join(dir, "memory.swap.max"), "0");
    }
    if (limits.pids !== null) write(path.join(dir, "pids.max"), String(limits.pids));
    if (limits.cpus !== null) {
      const all = readText(path.join(parent, "cpuset.cpus.effective")) ?? "";
      write(path.join(dir, "cpuset.cpus"), pickCpus(all, limits.cpus, siblingCpusets(parent)));
    }
  } catch (e) {
    destroy();
    throw e;
  }
  let pidsPeak = 0;
  return {
    version: 2,
    procsFiles: [path.join(dir, "cgroup.procs")],
    stats() {
      const current = readNumber(path.join(dir, "pids.current"));
      if (current !== null) pidsPeak = Math.max(pidsPeak, current);
      const usec = readKey(path.join(dir, "cpu.stat"), "usage_usec");
      return {
        memoryPeakBytes: readNumber(path.join(dir, "memory.peak")),
        pidsCurrent: current,
        pidsPeak: readNumber(path.join(dir, "pids.peak")) ?? pidsPeak,
        cpuSeconds: usec === null ? null : usec / 1e6,
        oomKills: readKey(path.join(dir, "memory.events"), "oom_kill"),
      };
    },
    killAll(signal = "SIGKILL") {
      if (signal === "SIGKILL" && fs.existsSync(path.join(dir, "cgroup.kill"))) {
        try {
          write(path.join(dir, "cgroup.kill"), "1");
          return;
        } catch {
          // fall back to the loop
        }
      }
      if (signal !== "SIGKILL") {
        killPids(path.join(dir, "cgroup.procs"), signal);
        return;
      }
      killUntilEmpty(path.join(dir, "cgroup.procs"));
    },
    destroy,
  };
}

/**
 * Create a cgroup for one run under this process's own cgroup, or explain why that is not
 * possible here (then limits other than wall time cannot be enforced).
 */
export function createCgroup(name: string, limits: CgroupLimits): { cgroup: Cgroup } | { error: string } {
  try {
    const v2 = fs.existsSync(path.join(ROOT, "cgroup.controllers"));
    return { cgroup: v2 ? createV2(name, limits) : createV1(name, limits) };
  } catch (e) {
    return { error: `cgroup limits unavailable: ${(e as Error).message}` };
  }
}

/**
 * argv prefix that moves the launched process into the cgroup before it execs the command, so
 * that every descendant is accounted from its first instruction.
 */
export function joinPrefix(cgroup: Cgroup | null): string[] {
  if (!cgroup || cgroup.procsFiles.length === 0) return [];
  const script = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';
  return ["/bin/sh", "-c", script, "mlebench-join", String(cgroup.procsFiles.length), ...cgroup.procsFiles];
}

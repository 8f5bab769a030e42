import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { UserError } from "../core/errors.js";
import { chownTree } from "./disk.js";
import { HostSandbox } from "./host.js";
import { processName } from "./process.js";
import { seccompProgram } from "./seccomp.js";
import { cachedProbe } from "./probe-cache.js";
import { planStage, stagedArgv, stagingUnavailable, type StagePlan } from "./stage.js";
import { leaseUid } from "./uid-pool.js";
import {
  CONTAINER_PATHS,
  INIT_SCRIPT,
  baseSandboxEnv,
  SANDBOX_PATHS,
  WRITABLE_DIRS,
  type Sandbox,
  type SandboxBackend,
  type SandboxPaths,
  type SandboxSpec,
} from "./types.js";

/** The agent's uid and gid inside the sandbox (and, when the harness is root, on the host). */
export interface Identity {
  /** Host uid the agent runs as when the harness is root: one of its own per run (see uid-pool.ts). */
  hostUid: number;
  /** uid the agent sees inside the sandbox when the harness is not root. */
  innerUid: number;
  asRoot: boolean;
}

/** Entries of the host's /etc that programs need (linker cache, TLS roots, Python config, time zone). */
const HOST_ETC = [
  "alternatives",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "ssl",
  "ca-certificates",
  "ca-certificates.conf",
  "localtime",
  "timezone",
  "mime.types",
  "python3",
  "python3.11",
  "python3.12",
  "matplotlibrc",
  "nsswitch.conf",
  "protocols",
  "services",
  "os-release",
  "debian_version",
  "fonts",
  "gai.conf",
  "host.conf",
  "magic",
  "magic.mime",
];

/** Top-level system dirs; usually symlinks into /usr on merged-/usr systems. */
const SYSTEM_DIRS = ["bin", "sbin", "lib", "lib32", "lib64", "libx32"];

/** GPU control nodes a CUDA program opens besides /dev/nvidia<N>. */
const NVIDIA_CONTROL = ["nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset"];

/** Paths inside a bwrap sandbox: the upstream container layout. */
export const BWRAP_PATHS: SandboxPaths = CONTAINER_PATHS;

/** Host facts the argv depends on, gathered once so bwrapArgs stays a pure function. */
export interface HostLayout {
  /** For each of SYSTEM_DIRS present on the host: a symlink target, or "dir". */
  systemDirs: Record<string, string>;
  /** HOST_ETC entries that exist. */
  etc: string[];
  /** /dev/nvidia* nodes that exist. */
  nvidia: string[];
  nodeBinary: string;
  initScript: string;
}

/** Read the host facts bwrapArgs needs. */
export function hostLayout(): HostLayout {
  const systemDirs: Record<string, string> = {};
  for (const d of SYSTEM_DIRS) {
    const p = `/${d}`;
    try {
      const st = fs.lstatSync(p);
      systemDirs[d] = st.isSymbolicLink() ? fs.readlinkSync(p) : "dir";
    } catch {
      // absent on this host
    }
  }
  let nvidia: string[] = [];
  try {
    nvidia = fs.readdirSync("/dev").filter((n) => n.startsWith("nvidia"));
  } catch {
    // no /dev listing
  }
  return {
    systemDirs,
    etc: HOST_ETC.filter((e) => fs.existsSync(`/etc/${e}`)),
    nvidia,
    nodeBinary: process.execPath,
    initScript: INIT_SCRIPT,
  };
}

/** An empty file, written beside the identity files, bound over every hidden file. */
export const EMPTY_FILE = "empty";

/** Files generated per sandbox: who the agent is and what localhost means. */
export function identityFiles(uid: number): Record<string, string> {
  return {
    passwd: `root:x:0:0:root:/root:/usr/sbin/nologin\nagent:x:${uid}:${uid}:agent:/home/workspace:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    group: `root:x:0:\nagent:x:${uid}:\nnogroup:x:65534:\n`,
    hosts: "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n",
    hostname: "mlebench\n",
    [EMPTY_FILE]: "",
  };
}

/** Where read-only mounts come from: the host paths themselves, or their staged copies (stage.ts). */
export interface MountSources {
  /** The path to bind for a read-only host path. */
  from(hostPath: string): string;
  /** A prepared /dev to bind, or null for bwrap's own. */
  dev: string | null;
}

const DIRECT: MountSources = { from: (p) => p, dev: null };

/**
 * The bwrap argv (without the command) for a sandbox: a read-only system, the competition's public
 * data read-only, the run's writable dirs, tmpfs /tmp, no network, a fresh pid namespace, no
 * capabilities, and only the harness files and sockets the spec names.
 */
export function bwrapArgs(spec: SandboxSpec, layout: HostLayout, id: Identity, etcDir: string, sources: MountSources = DIRECT): string[] {
  const a: string[] = [];
  const ro = (host: string, inside: string) => a.push("--ro-bind", sources.from(host), inside);
  if (id.asRoot) {
    // Root runs bwrap without a user namespace and hands the agent a real unprivileged host uid
    // through setpriv (which needs SETUID/SETGID/SETPCAP only until it execs).
    a.push("--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try");
    a.push("--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP");
  } else {
    // A user namespace per sandbox, and none below it: inside one the agent would hold every capability.
    // --disable-userns needs the user namespace asked for by name, not only through --unshare-all.
    a.push("--unshare-all", "--unshare-user", "--uid", String(id.innerUid), "--gid", String(id.innerUid), "--disable-userns", "--cap-drop", "ALL");
  }
  a.push("--die-with-parent", "--new-session", "--hostname", "mlebench");
  ro("/usr", "/usr");
  for (const [d, target] of Object.entries(layout.systemDirs)) {
    if (target === "dir") ro(`/${d}`, `/${d}`);
    else a.push("--symlink", target, `/${d}`);
  }
  a.push("--dir", "/etc");
  for (const e of layout.etc) ro(`/etc/${e}`, `/etc/${e}`);
  for (const f of ["passwd", "group", "hosts", "hostname"]) ro(path.join(etcDir, f), `/etc/${f}`);
  a.push("--proc", "/proc");
  if (sources.dev === null) a.push("--dev", "/dev");
  else a.push("--dev-bind", sources.dev, "/dev");
  const tmp = spec.limits.tmpBytes;
  for (const t of ["/tmp", "/dev/shm"]) {
    if (tmp !== null) a.push("--size", String(tmp));
    a.push("--perms", "1777", "--tmpfs", t);
  }
  a.push("--perms", "0755", "--tmpfs", "/home");
  a.push("--perms", "0755", "--tmpfs", "/run");
  a.push("--perms", "0755", "--dir", SANDBOX_PATHS.runtime);
  ro(spec.dataDir, SANDBOX_PATHS.data);
  for (const name of WRITABLE_DIRS) a.push("--bind", spec.writable[name], `/home/${name}`);
  ro(layout.nodeBinary, `${SANDBOX_PATHS.runtime}/node`);
  ro(layout.initScript, `${SANDBOX_PATHS.runtime}/init.mjs`);
  // /usr is visible read-only, and with it the Debian datasets offline competitions are cut from.
  // A hidden file reads as empty; a hidden folder (a dataset package's, an R package's) as empty too.
  for (const hidden of spec.hidden ?? []) {
    const st = fs.statSync(hidden, { throwIfNoEntry: false });
    if (st?.isFile()) ro(path.join(etcDir, EMPTY_FILE), hidden);
    else if (st?.isDirectory()) a.push("--perms", "0555", "--tmpfs", hidden);
  }
  // bwrap would make a missing parent private to root, where the agent could not reach the file.
  const parents = new Set(Object.keys(spec.files).map((inside) => path.posix.dirname(inside)).filter((d) => d.startsWith(`${SANDBOX_PATHS.runtime}/`)));
  for (const d of [...parents].sort()) a.push("--perms", "0755", "--dir", d);
  for (const [inside, host] of Object.entries(spec.files)) ro(host, inside);
  for (const s of spec.sockets) a.push("--bind", s.hostPath, `${SANDBOX_PATHS.runtime}/${s.name}`);
  if (spec.gpus.length > 0) {
    for (const g of spec.gpus) a.push("--dev-bind", `/dev/nvidia${g}`, `/dev/nvidia${g}`);
    for (const c of NVIDIA_CONTROL) if (layout.nvidia.includes(c)) a.push("--dev-bind", `/dev/${c}`, `/dev/${c}`);
    // NVML reads device topology from sysfs.
    a.push("--ro-bind", "/sys", "/sys");
  }
  return a;
}

/** Without a pids cgroup, RLIMIT_NPROC (per uid) is the fallback that stops a fork bomb: the prefix that sets it. */
function nprocPrefix(spec: SandboxSpec, cgroupLimited: boolean): string[] {
  return !cgroupLimited && spec.limits.pids !== null ? ["/usr/bin/prlimit", `--nproc=${spec.limits.pids}`, "--"] : [];
}

/** The init's --forward options for the spec's loopback ports. */
function forwardArgs(spec: SandboxSpec): string[] {
  return spec.sockets.flatMap((s) => (s.loopbackPort === undefined ? [] : ["--forward", `${s.loopbackPort}=${SANDBOX_PATHS.runtime}/${s.name}`]));
}

/** The command as started inside the sandbox: drop to the agent uid, then the init that serves loopback ports. */
export function entryArgv(spec: SandboxSpec, id: Identity, command: string[], cgroupLimited = true, cwd?: string): string[] {
  const out = nprocPrefix(spec, cgroupLimited);
  if (id.asRoot) {
    out.push(
      "/usr/bin/setpriv",
      `--reuid=${id.hostUid}`,
      `--regid=${id.hostUid}`,
      "--clear-groups",
      "--inh-caps=-all",
      "--bounding-set=-all",
      "--",
    );
  }
  out.push(`${SANDBOX_PATHS.runtime}/node`, `${SANDBOX_PATHS.runtime}/init.mjs`);
  if (cwd !== undefined) out.push("--cwd", cwd);
  out.push(...forwardArgs(spec), "--", ...command);
  return out;
}

/**
 * The exec server as started inside the sandbox (init.mjs --serve, which kills every process of
 * the agent's uid between commands: it is alone in the sandbox's pid namespace). As root it keeps
 * uid 0 with CAP_SETUID and CAP_SETGID only and an empty bounding set, which its commands
 * inherit; they run as the agent's host uid without any capability. Unprivileged, it is the
 * agent's uid, and the fallback process limit is set on it once, for every command.
 */
export function serverArgv(spec: SandboxSpec, id: Identity, cgroupLimited = true): string[] {
  const out = id.asRoot ? ["/usr/bin/setpriv", "--bounding-set=-all", "--inh-caps=-all,+setuid,+setgid", "--"] : nprocPrefix(spec, cgroupLimited);
  out.push(`${SANDBOX_PATHS.runtime}/node`, `${SANDBOX_PATHS.runtime}/init.mjs`, "--serve", "--sweep");
  if (id.asRoot) out.push("--agent-uid", String(id.hostUid));
  out.push(...forwardArgs(spec));
  return out;
}

/**
 * A command's argv as the exec server starts it. As root the process limit is set per command:
 * on the server (uid 0) it would count root's processes.
 */
export function servedArgv(spec: SandboxSpec, id: Identity, command: string[], cgroupLimited: boolean): string[] {
  return id.asRoot ? [...nprocPrefix(spec, cgroupLimited), ...command] : command;
}

/** Whether commands run through one exec server per run (the default) rather than a sandbox each (MLEBENCH_EXEC_SERVER=0). */
export function execServerEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.MLEBENCH_EXEC_SERVER !== "0";
}

/** Throw a UserError naming the first requested GPU whose device node is absent. */
export function requireGpus(ids: number[]): void {
  const missing = ids.filter((g) => !fs.existsSync(`/dev/nvidia${g}`));
  if (missing.length === 0) return;
  let present: string[] = [];
  try {
    present = fs.readdirSync("/dev").filter((n) => /^nvidia\d+$/.test(n));
  } catch {
    // no /dev listing
  }
  throw new UserError(`--gpus: /dev/nvidia${missing[0]} does not exist on this machine (GPUs present: ${present.join(", ") || "none"})`);
}

function findBwrap(): string | null {
  const override = process.env.MLEBENCH_BWRAP;
  if (override) return override;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const p = path.join(dir, "bwrap");
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** The uid the agent sees when the harness is not root (inside its own user namespace). */
const INNER_UID = 1000;

const FIX = "install it with: sudo bash scripts/setup-agent-env.sh (Debian: apt-get install bubblewrap)";

/** A bwrap sandbox for `id`; `dirs` collects the temporary folders `cleanup` removes. */
async function createSandbox(bin: string, spec: SandboxSpec, id: Identity, dirs: string[], cleanup: () => Promise<void>): Promise<Sandbox> {
  const warnings: string[] = [];
  const etcDir = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-etc-"));
  dirs.push(etcDir);
  fs.chmodSync(etcDir, 0o755);
  const uid = id.asRoot ? id.hostUid : id.innerUid;
  for (const [name, text] of Object.entries(identityFiles(uid))) fs.writeFileSync(path.join(etcDir, name), text, { mode: 0o644 });
  if (id.asRoot) {
    // The agent is an unprivileged host user: it owns its writable dirs and nothing else.
    for (const name of WRITABLE_DIRS) await chownTree(spec.writable[name], id.hostUid, id.hostUid);
  }
  const layout = hostLayout();
  let base = bwrapArgs(spec, layout, id, etcDir);
  let stage: StagePlan | null = null;
  if (id.asRoot) {
    const why = stagingUnavailable();
    if (why === null) {
      const stageDir = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-stage-"));
      dirs.push(stageDir);
      // The first pass names every read-only source; the second binds them from their overlays.
      const sources = new Set<string>();
      bwrapArgs(spec, layout, id, etcDir, { from: (p) => (sources.add(p), p), dev: null });
      stage = planStage(stageDir, sources);
      base = bwrapArgs(spec, layout, id, etcDir, { from: stage.from, dev: stage.dev });
    } else {
      warnings.push(`${why}: read-only mounts are the host's own files, lockable across runs and named by host path in /proc/self/mountinfo`);
    }
  }
  const filter = seccompProgram();
  if (filter === null) warnings.push(`no seccomp filter for ${process.arch}: nested user namespaces and the kernel keyring are not blocked`);
  let calls = 0;
  /** A descriptor reading `data`, through a file removed at once (bwrap reads it to the end). */
  const feed = (name: string, data: string | Buffer): number => {
    const file = path.join(etcDir, `${name}-${++calls}`);
    fs.writeFileSync(file, data, { mode: 0o600 });
    const fd = fs.openSync(file, "r");
    fs.rmSync(file);
    return fd;
  };
  /** The host argv that starts `entry` in a new sandbox, and the descriptors it reads (args, seccomp). */
  const launch = (entry: string[], env: Record<string, string>) => {
    const setenv = Object.entries(env).flatMap(([k, v]) => ["--setenv", k, v]);
    // Arguments travel through a file descriptor so that the sandbox's pid 1, whose command
    // line the agent can read, does not list host paths.
    // The command's folder is entered by the init, as the agent: bwrap starts in /.
    const fds = [feed("args", [...base, "--chdir", "/", "--clearenv", ...setenv].map((x) => `${x}\0`).join(""))];
    const argv = [bin, "--args", "3"];
    if (filter !== null) {
      fds.push(feed("seccomp", filter));
      argv.push("--seccomp", "4");
    }
    argv.push("--", ...entry);
    return { argv: stage ? stagedArgv(stage, argv) : argv, fds };
  };
  const hostEnv = () => ({ PATH: "/usr/sbin:/usr/bin:/sbin:/bin" });
  const sandbox = new HostSandbox(
    "bwrap",
    BWRAP_PATHS,
    spec,
    {
      argv: (command, cwd, env, cgroupLimited) => launch(entryArgv(spec, id, command, cgroupLimited, cwd), env),
      hostEnv,
      hostCwd: () => undefined,
      graceful: (pid) => processName(pid) !== "bwrap",
      server: execServerEnabled()
        ? {
            // The server's own environment; each command brings its own.
            launch: (cgroupLimited) => ({ ...launch(serverArgv(spec, id, cgroupLimited), { PATH: baseSandboxEnv().PATH }), env: hostEnv() }),
            command: (argv, cgroupLimited) => servedArgv(spec, id, argv, cgroupLimited),
          }
        : undefined,
    },
    cleanup,
    id.asRoot ? { uid: id.hostUid, gid: id.hostUid } : undefined,
  );
  sandbox.warnings.push(...warnings);
  return sandbox;
}

/** The default backend on Linux: bubblewrap namespaces plus cgroup limits. */
export const bwrapBackend = {
  name: "bwrap",
  async unavailable(): Promise<string | null> {
    if (process.platform !== "linux") return `bubblewrap needs Linux (this is ${process.platform}); use --sandbox docker`;
    const bin = findBwrap();
    if (!bin) return `bubblewrap (bwrap) is not installed; ${FIX}`;
    // Keyed by the binary: MLEBENCH_BWRAP may name another one, which must be proved on its own.
    return cachedProbe(`bwrap:${bin}`, () => {
      const r = spawnSync(bin, ["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "true"], { encoding: "utf8" });
      if (r.status === 0) return null;
      return `bubblewrap cannot create namespaces here (${(r.stderr || r.error?.message || "").trim()}); enable unprivileged user namespaces or run as root`;
    });
  },
  async create(spec: SandboxSpec): Promise<Sandbox> {
    const bin = findBwrap();
    if (!bin) throw new Error(`bubblewrap (bwrap) is not installed; ${FIX}`);
    requireGpus(spec.gpus);
    const asRoot = process.getuid?.() === 0;
    // As root the agent is a real host user, so each run gets a uid no other run holds.
    const lease = asRoot ? leaseUid() : null;
    const dirs: string[] = [];
    const cleanup = async () => {
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
      lease?.release();
    };
    try {
      return await createSandbox(bin, spec, { asRoot, hostUid: lease?.uid ?? INNER_UID, innerUid: INNER_UID }, dirs, cleanup);
    } catch (e) {
      await cleanup();
      throw e;
    }
  },
} satisfies SandboxBackend;

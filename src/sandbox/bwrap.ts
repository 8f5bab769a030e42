import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { UserError } from "../core/errors.js";
import { chownTree } from "./disk.js";
import { HostSandbox } from "./host.js";
import { processName } from "./process.js";
import {
  CONTAINER_PATHS,
  INIT_SCRIPT,
  SANDBOX_PATHS,
  WRITABLE_DIRS,
  type Sandbox,
  type SandboxBackend,
  type SandboxPaths,
  type SandboxSpec,
} from "./types.js";

/** The agent's uid and gid inside the sandbox (and, when the harness is root, on the host). */
export interface Identity {
  /** Host uid the agent runs as when the harness is root (default 65534, "nobody"). */
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

/**
 * The bwrap argv (without the command) for a sandbox: a read-only system, the competition's public
 * data read-only, the run's writable dirs, tmpfs /tmp, no network, a fresh pid namespace, no
 * capabilities, and only the harness files and sockets the spec names.
 */
export function bwrapArgs(spec: SandboxSpec, layout: HostLayout, id: Identity, etcDir: string): string[] {
  const a: string[] = [];
  if (id.asRoot) {
    // Root runs bwrap without a user namespace and hands the agent a real unprivileged host uid
    // through setpriv (which needs SETUID/SETGID/SETPCAP only until it execs).
    a.push("--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try");
    a.push("--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP");
  } else {
    a.push("--unshare-all", "--uid", String(id.innerUid), "--gid", String(id.innerUid), "--cap-drop", "ALL");
  }
  a.push("--die-with-parent", "--new-session", "--hostname", "mlebench");
  a.push("--ro-bind", "/usr", "/usr");
  for (const [d, target] of Object.entries(layout.systemDirs)) {
    if (target === "dir") a.push("--ro-bind", `/${d}`, `/${d}`);
    else a.push("--symlink", target, `/${d}`);
  }
  a.push("--dir", "/etc");
  for (const e of layout.etc) a.push("--ro-bind", `/etc/${e}`, `/etc/${e}`);
  for (const f of ["passwd", "group", "hosts", "hostname"]) a.push("--ro-bind", path.join(etcDir, f), `/etc/${f}`);
  a.push("--proc", "/proc", "--dev", "/dev");
  const tmp = spec.limits.tmpBytes;
  for (const t of ["/tmp", "/dev/shm"]) {
    if (tmp !== null) a.push("--size", String(tmp));
    a.push("--perms", "1777", "--tmpfs", t);
  }
  a.push("--perms", "0755", "--tmpfs", "/home");
  a.push("--perms", "0755", "--tmpfs", "/run");
  a.push("--perms", "0755", "--dir", SANDBOX_PATHS.runtime);
  a.push("--ro-bind", spec.dataDir, SANDBOX_PATHS.data);
  for (const name of WRITABLE_DIRS) a.push("--bind", spec.writable[name], `/home/${name}`);
  a.push("--ro-bind", layout.nodeBinary, `${SANDBOX_PATHS.runtime}/node`);
  a.push("--ro-bind", layout.initScript, `${SANDBOX_PATHS.runtime}/init.mjs`);
  // /usr is visible read-only, and with it the Debian datasets offline competitions are cut from.
  for (const file of spec.hidden ?? []) {
    if (fs.existsSync(file) && fs.statSync(file).isFile()) a.push("--ro-bind", path.join(etcDir, EMPTY_FILE), file);
  }
  for (const [inside, host] of Object.entries(spec.files)) a.push("--ro-bind", host, inside);
  for (const s of spec.sockets) a.push("--bind", s.hostPath, `${SANDBOX_PATHS.runtime}/${s.name}`);
  if (spec.gpus.length > 0) {
    for (const g of spec.gpus) a.push("--dev-bind", `/dev/nvidia${g}`, `/dev/nvidia${g}`);
    for (const c of NVIDIA_CONTROL) if (layout.nvidia.includes(c)) a.push("--dev-bind", `/dev/${c}`, `/dev/${c}`);
    // NVML reads device topology from sysfs.
    a.push("--ro-bind", "/sys", "/sys");
  }
  return a;
}

/** The command as started inside the sandbox: drop to the agent uid, then the init that serves loopback ports. */
export function entryArgv(spec: SandboxSpec, id: Identity, command: string[], cgroupLimited = true): string[] {
  const out: string[] = [];
  if (!cgroupLimited && spec.limits.pids !== null) {
    // Without a pids cgroup, RLIMIT_NPROC (per uid) is the fallback that stops a fork bomb.
    out.push("/usr/bin/prlimit", `--nproc=${spec.limits.pids}`, "--");
  }
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
  for (const s of spec.sockets) {
    if (s.loopbackPort !== undefined) out.push("--forward", `${s.loopbackPort}=${SANDBOX_PATHS.runtime}/${s.name}`);
  }
  out.push("--", ...command);
  return out;
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

function identity(): Identity {
  const asRoot = process.getuid?.() === 0;
  const fromEnv = Number(process.env.MLEBENCH_SANDBOX_UID);
  return { asRoot, hostUid: Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 65534, innerUid: 1000 };
}

const FIX = "install it with: sudo bash scripts/setup-agent-env.sh (Debian: apt-get install bubblewrap)";

/** The default backend on Linux: bubblewrap namespaces plus cgroup limits. */
export const bwrapBackend = {
  name: "bwrap",
  async unavailable(): Promise<string | null> {
    if (process.platform !== "linux") return `bubblewrap needs Linux (this is ${process.platform}); use --sandbox docker`;
    const bin = findBwrap();
    if (!bin) return `bubblewrap (bwrap) is not installed; ${FIX}`;
    const r = spawnSync(bin, ["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "true"], { encoding: "utf8" });
    if (r.status !== 0) {
      return `bubblewrap cannot create namespaces here (${(r.stderr || r.error?.message || "").trim()}); enable unprivileged user namespaces or run as root`;
    }
    return null;
  },
  async create(spec: SandboxSpec): Promise<Sandbox> {
    const bin = findBwrap();
    if (!bin) throw new Error(`bubblewrap (bwrap) is not installed; ${FIX}`);
    requireGpus(spec.gpus);
    const id = identity();
    const etcDir = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-etc-"));
    fs.chmodSync(etcDir, 0o755);
    const uid = id.asRoot ? id.hostUid : id.innerUid;
    for (const [name, text] of Object.entries(identityFiles(uid))) fs.writeFileSync(path.join(etcDir, name), text, { mode: 0o644 });
    if (id.asRoot) {
      // The agent is an unprivileged host user: it owns its writable dirs and nothing else.
      for (const name of WRITABLE_DIRS) await chownTree(spec.writable[name], id.hostUid, id.hostUid);
    }
    const base = bwrapArgs(spec, hostLayout(), id, etcDir);
    let calls = 0;
    const sandbox = new HostSandbox(
      "bwrap",
      BWRAP_PATHS,
      spec,
      {
        argv: (command, cwd, env, cgroupLimited) => {
          const setenv = Object.entries(env).flatMap(([k, v]) => ["--setenv", k, v]);
          // Arguments travel through a file descriptor so that the sandbox's pid 1, whose command
          // line the agent can read, does not list host paths.
          const args = [...base, "--chdir", cwd, "--clearenv", ...setenv];
          const file = path.join(etcDir, `args-${++calls}`);
          fs.writeFileSync(file, args.map((x) => `${x}\0`).join(""), { mode: 0o600 });
          const fd = fs.openSync(file, "r");
          fs.rmSync(file);
          return { argv: [bin, "--args", "3", "--", ...entryArgv(spec, id, command, cgroupLimited)], fds: [fd] };
        },
        hostEnv: () => ({ PATH: "/usr/sbin:/usr/bin:/sbin:/bin" }),
        hostCwd: () => undefined,
        graceful: (pid) => processName(pid) !== "bwrap",
      },
      async () => fs.rmSync(etcDir, { recursive: true, force: true }),
    );
    return sandbox;
  },
} satisfies SandboxBackend;

import fs from "node:fs";
import path from "node:path";
import { buildImageAdvice, describeDockerProbe, probeDocker } from "../sandbox/docker.js";
import { runProcess, type ProcessResult } from "../sandbox/process.js";

/** One line of `mlebench doctor`: what was checked, how it went and how to fix it. */
export interface Check {
  name: string;
  /** "warning": works partly, or an optional part is absent. */
  status: "ok" | "missing" | "warning";
  /** Whether runs cannot work without it (decides doctor's exit status). */
  required: boolean;
  detail: string;
  fix: string | null;
}

/** Where doctor looks; tests swap the environment to hide tools or point at fakes. */
export interface CheckOptions {
  /** Environment whose PATH and MLEBENCH_AGENT_PYTHON are used (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** The interpreter agents get inside the sandbox, unless MLEBENCH_AGENT_PYTHON says otherwise. */
export const DEFAULT_AGENT_PYTHON = "/usr/bin/python3";

/** Modules agents are promised, by import name; the first ones are required. */
export const AGENT_PYTHON_MODULES: { module: string; required: boolean }[] = [
  { module: "numpy", required: true },
  { module: "pandas", required: true },
  { module: "sklearn", required: true },
  { module: "scipy", required: true },
  { module: "xgboost", required: true },
  { module: "torch", required: false },
];

const SETUP_FIX = "sudo bash scripts/setup-agent-env.sh";
const MIN_NODE: [number, number] = [20, 10];

/** Run a probe command; a binary that cannot start reads as a failed result instead of an exception. */
async function probe(argv: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<ProcessResult> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  try {
    return await runProcess(argv, { env: clean, timeoutMs, graceMs: 1000, outputLimit: 64 * 1024 });
  } catch (e) {
    return {
      pid: -1,
      exitCode: null,
      signal: null,
      timedOut: false,
      stdout: "",
      stderr: (e as Error).message,
      truncated: false,
      wallMs: 0,
    };
  }
}

/** The first non-empty line a failed probe printed, for the detail column. */
function firstLine(r: ProcessResult): string {
  const line = `${r.stderr}\n${r.stdout}`
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "");
  if (line) return line.length > 200 ? `${line.slice(0, 200)}...` : line;
  if (r.timedOut) return "timed out";
  return r.signal ? `killed by ${r.signal}` : `exit status ${r.exitCode}`;
}

/** Look a command up on PATH the way a shell would, so a hidden binary counts as absent. */
export function findOnPath(command: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, command);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Node itself: the CLI uses APIs that arrived in 20.10. */
export function checkNode(version = process.versions.node): Check {
  const [major, minor] = version.split(".").map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    name: "node",
    status: ok ? "ok" : "missing",
    required: true,
    detail: ok ? `v${version}` : `v${version} is too old; need >= ${MIN_NODE.join(".")}`,
    fix: ok ? null : `install Node.js ${MIN_NODE.join(".")} or newer (https://nodejs.org)`,
  };
}

/** bubblewrap present and actually able to build a namespace here (kernels and containers may forbid it). */
export async function checkBubblewrap(env: NodeJS.ProcessEnv = process.env): Promise<Check> {
  const name = "bubblewrap";
  const bwrap = findOnPath("bwrap", env);
  if (bwrap === null) {
    return { name, status: "missing", required: true, detail: "bwrap not found on PATH", fix: SETUP_FIX };
  }
  const trial = await probe([bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "true"], env);
  if (trial.exitCode === 0) return { name, status: "ok", required: true, detail: bwrap, fix: null };
  return {
    name,
    status: "missing",
    required: true,
    detail: `${bwrap} cannot create a sandbox here: ${firstLine(trial)}`,
    fix:
      "allow unprivileged user namespaces (sysctl -w kernel.unprivileged_userns_clone=1, or on Ubuntu " +
      "kernel.apparmor_restrict_unprivileged_userns=0); inside a container, run it with --privileged " +
      `or a seccomp profile that permits unshare. If bwrap is broken, reinstall: ${SETUP_FIX}`,
  };
}

interface MountInfo {
  root: string;
  mountPoint: string;
  fsType: string;
  superOptions: string[];
}

/** Cgroup mounts from /proc/self/mountinfo (fields per proc(5); the root tells which subtree is visible). */
function cgroupMounts(): MountInfo[] {
  let text: string;
  try {
    text = fs.readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return [];
  }
  const mounts: MountInfo[] = [];
  for (const line of text.split("\n")) {
    const [left, right] = line.split(" - ");
    if (right === undefined) continue;
    const fields = left.split(" ");
    const [fsType, , superOpts] = right.split(" ");
    if (fsType !== "cgroup" && fsType !== "cgroup2") continue;
    const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));
    mounts.push({
      root: unescape(fields[3]),
      mountPoint: unescape(fields[4]),
      fsType,
      superOptions: (superOpts ?? "").split(","),
    });
  }
  return mounts;
}

/** This process's cgroup directory for one controller, and the cgroup version that serves it. */
function ownCgroupDir(
  controller: string,
  mounts: MountInfo[],
  membership: { controllers: string[]; path: string }[],
): { dir: string; version: 1 | 2 } | null {
  const inside = (m: MountInfo, cgPath: string) => {
    const rel = path.posix.relative(m.root, cgPath);
    // A namespaced mount shows our own cgroup as its root, so a path outside it means "here".
    return rel.startsWith("..") ? m.mountPoint : path.join(m.mountPoint, rel);
  };
  const v1 = mounts.find((m) => m.fsType === "cgroup" && m.superOptions.includes(controller));
  if (v1) {
    const entry = membership.find((e) => e.controllers.includes(controller));
    return entry ? { dir: inside(v1, entry.path), version: 1 } : null;
  }
  const v2 = mounts.find((m) => m.fsType === "cgroup2");
  const entry = membership.find((e) => e.controllers.length === 0);
  if (!v2 || !entry) return null;
  const dir = inside(v2, entry.path);
  try {
    const available = fs.readFileSync(path.join(dir, "cgroup.controllers"), "utf8").trim().split(/\s+/);
    return available.includes(controller) ? { dir, version: 2 } : null;
  } catch {
    return null;
  }
}

/** Whether a child cgroup can be made (and removed again) under a directory. */
function canCreateChild(dir: string): boolean {
  const child = path.join(dir, `mlebench-doctor-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  try {
    fs.mkdirSync(child);
  } catch {
    return false;
  }
  try {
    fs.rmdirSync(child);
  } catch {
    // an empty cgroup we just made; leaving it is harmless
  }
  return true;
}

/** Whether runs can get their own memory, pids and cpuset cgroups; without them those limits are advisory. */
export function checkCgroups(): Check {
  const name = "cgroups";
  const fix = "run as root, or delegate a cgroup (systemd-run --user --scope -p Delegate=yes mlebench ...)";
  let membership: { controllers: string[]; path: string }[] = [];
  try {
    membership = fs
      .readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => {
        const [, controllers, ...rest] = l.split(":");
        return { controllers: controllers === "" ? [] : controllers.split(","), path: rest.join(":") };
      });
  } catch {
    return { name, status: "warning", required: false, detail: "no /proc/self/cgroup; memory/pid/CPU limits will not be enforced", fix };
  }
  const mounts = cgroupMounts();
  const versions = new Set<number>();
  const parts: string[] = [];
  const failed: string[] = [];
  for (const controller of ["memory", "pids", "cpuset"]) {
    const own = ownCgroupDir(controller, mounts, membership);
    if (own === null) {
      parts.push(`${controller}: not available`);
      failed.push(controller);
      continue;
    }
    versions.add(own.version);
    const ok = canCreateChild(own.dir);
    parts.push(`${controller}: ${ok ? "writable" : "not writable"}`);
    if (!ok) failed.push(controller);
  }
  const version = versions.size === 0 ? "unknown version" : `v${[...versions].sort().join("+v")}`;
  const detail = `${version}; ${parts.join(", ")}`;
  if (failed.length === 0) return { name, status: "ok", required: false, detail, fix: null };
  return {
    name,
    status: "warning",
    required: false,
    detail: `${detail}; memory/pid/CPU limits will not be enforced`,
    fix,
  };
}

/** Prints {"python": version, "modules": {name: {version} | {error}}} in one interpreter start. */
const PYTHON_PROBE = `
import importlib, json, sys
out = {"python": sys.version.split()[0], "modules": {}}
for name in sys.argv[1:]:
    try:
        mod = importlib.import_module(name)
        out["modules"][name] = {"version": str(getattr(mod, "__version__", "unknown"))}
    except BaseException as e:
        out["modules"][name] = {"error": (type(e).__name__ + ": " + str(e))[:200]}
print(json.dumps(out))
`;

/** The agents' interpreter and its modules, one check each, from a single python process. */
export async function checkPython(env: NodeJS.ProcessEnv = process.env): Promise<Check[]> {
  const python = env.MLEBENCH_AGENT_PYTHON || DEFAULT_AGENT_PYTHON;
  const modules = AGENT_PYTHON_MODULES.map((m) => m.module);
  // -I ignores PYTHONPATH and user site-packages, which agents in the sandbox will not have either.
  const r = await probe([python, "-I", "-c", PYTHON_PROBE, ...modules], env, 180_000);
  let parsed: { python: string; modules: Record<string, { version?: string; error?: string }> } | null = null;
  if (r.exitCode === 0) {
    try {
      parsed = JSON.parse(r.stdout.trim().split("\n").pop() ?? "");
    } catch {
      parsed = null;
    }
  }
  if (parsed === null) {
    const why = `${python} did not run: ${firstLine(r)}`;
    return [
      { name: "python3", status: "missing", required: true, detail: why, fix: SETUP_FIX },
      ...AGENT_PYTHON_MODULES.map(
        (m): Check => ({
          name: `python3: ${m.module}`,
          status: m.required ? "missing" : "warning",
          required: m.required,
          detail: "unknown (python3 did not run)",
          fix: m.required ? SETUP_FIX : `${SETUP_FIX} --with-torch`,
        }),
      ),
    ];
  }
  const found = parsed;
  return [
    { name: "python3", status: "ok", required: true, detail: `${found.python} (${python})`, fix: null },
    ...AGENT_PYTHON_MODULES.map((m): Check => {
      const info = found.modules[m.module] ?? { error: "not reported" };
      if (info.version !== undefined) {
        return { name: `python3: ${m.module}`, status: "ok", required: m.required, detail: info.version, fix: null };
      }
      return {
        name: `python3: ${m.module}`,
        status: m.required ? "missing" : "warning",
        required: m.required,
        detail: m.required ? (info.error ?? "cannot import") : `optional, not installed (${info.error})`,
        fix: m.required ? SETUP_FIX : `${SETUP_FIX} --with-torch`,
      };
    }),
  ];
}

/** A program agents are promised on PATH, and what breaks without it. */
function checkTool(name: string, missing: string, env: NodeJS.ProcessEnv): Check {
  const found = findOnPath(name, env);
  if (found !== null) return { name, status: "ok", required: false, detail: found, fix: null };
  return { name, status: "warning", required: false, detail: `not found on PATH; ${missing}`, fix: SETUP_FIX };
}

/** curl: /home/validate_submission.sh posts submissions with it; agents can validate by other means. */
export function checkCurl(env: NodeJS.ProcessEnv = process.env): Check {
  return checkTool("curl", "/home/validate_submission.sh will not work", env);
}

/** envsubst (gettext-base): upstream MLE-bench's start scripts fill their prompt templates with it. */
export function checkEnvsubst(env: NodeJS.ProcessEnv = process.env): Check {
  return checkTool("envsubst", "upstream's agents (aide) cannot fill in their instructions", env);
}

/** The Docker engine and image: only `--sandbox docker` needs them. */
export async function checkDocker(): Promise<Check> {
  const p = await probeDocker(10_000);
  const name = "docker";
  if (p.engine === null) {
    return {
      name,
      status: "warning",
      required: false,
      detail: `engine not reachable (${p.error}); only --sandbox docker needs it`,
      fix: "install and start the Docker engine, or keep the default --sandbox bwrap",
    };
  }
  if (describeDockerProbe(p) !== null) {
    return {
      name,
      status: "warning",
      required: false,
      detail: `engine ${p.engine}; image "${p.image}" not built`,
      fix: buildImageAdvice(p.image),
    };
  }
  return { name, status: "ok", required: false, detail: `engine ${p.engine}; image "${p.image}" present`, fix: null };
}

/** NVIDIA GPUs that runs could be given; none is a fine answer. */
export async function checkGpus(env: NodeJS.ProcessEnv = process.env): Promise<Check> {
  const name = "gpus";
  let devices: string[] = [];
  try {
    devices = fs
      .readdirSync("/dev")
      .filter((d) => /^nvidia\d+$/.test(d))
      .sort((a, b) => Number(a.slice(6)) - Number(b.slice(6)))
      .map((d) => `/dev/${d}`);
  } catch {
    // no /dev to read: treat as no GPUs
  }
  const smi = findOnPath("nvidia-smi", env);
  if (smi === null) {
    const detail = devices.length === 0 ? "none (CPU only)" : `${devices.join(", ")} (nvidia-smi not found)`;
    return { name, status: "ok", required: false, detail, fix: null };
  }
  const r = await probe([smi, "-L"], env);
  const listed = r.stdout
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.startsWith("GPU "));
  if (r.exitCode !== 0) {
    if (devices.length === 0) return { name, status: "ok", required: false, detail: "none (CPU only)", fix: null };
    return {
      name,
      status: "warning",
      required: false,
      detail: `${devices.join(", ")} present but nvidia-smi failed: ${firstLine(r)}`,
      fix: "check the NVIDIA driver installation (nvidia-smi should list the GPUs)",
    };
  }
  return {
    name,
    status: "ok",
    required: false,
    detail: listed.length === 0 ? "none (CPU only)" : listed.join("; "),
    fix: null,
  };
}

/** Every check, in display order; independent probes run concurrently. */
export async function runChecks(opts: CheckOptions = {}): Promise<Check[]> {
  const env = opts.env ?? process.env;
  const [bwrap, python, docker, gpus] = await Promise.all([
    checkBubblewrap(env),
    checkPython(env),
    checkDocker(),
    checkGpus(env),
  ]);
  return [checkNode(), bwrap, checkCgroups(), ...python, checkCurl(env), checkEnvsubst(env), docker, gpus];
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { identityFiles } from "./bwrap.js";
import { chownTree, measureDisk } from "./disk.js";
import { OutputBudget, runProcess, terminateGroup, type ProcessResult } from "./process.js";
import { leaseUid } from "./uid-pool.js";
import {
  CONTAINER_PATHS,
  INIT_SCRIPT,
  SANDBOX_PATHS,
  STOP_GRACE_MS,
  WRITABLE_DIRS,
  type ExecOptions,
  type ExecResult,
  type ExitReason,
  type ResourcePeaks,
  type Sandbox,
  type SandboxBackend,
  type SandboxPaths,
  type SandboxSpec,
} from "./types.js";

/** The image built from docker/agent.Dockerfile, unless MLEBENCH_DOCKER_IMAGE names another. */
export const DEFAULT_DOCKER_IMAGE = "mlebench-agent";

/** The script that builds the agents' image offline, from Debian packages (no registry needed). */
export const BUILD_IMAGE_SCRIPT = fileURLToPath(new URL("../../scripts/build-agent-image.sh", import.meta.url));

/** The Dockerfile of the agents' image (its base comes from Docker Hub unless BASE says otherwise). */
const DOCKERFILE = fileURLToPath(new URL("../../docker/agent.Dockerfile", import.meta.url));

/** How to build an image of this name, quoted in every "image missing" message. */
export function buildImageAdvice(image: string): string {
  const tag = image === DEFAULT_DOCKER_IMAGE ? "" : ` --tag ${image}`;
  return (
    `sudo bash ${BUILD_IMAGE_SCRIPT}${tag} (offline, from the Debian archive), ` +
    `or where Docker Hub is reachable: docker build -t ${image} -f ${DOCKERFILE} ${path.dirname(DOCKERFILE)}`
  );
}

/** The uid of the image's `agent` user. */
export const AGENT_UID = 1000;

/** The init every container command starts through (the same file the other backends mount). */
export const DOCKER_INIT_SCRIPT = INIT_SCRIPT;

/** Where the init lives inside the container; commands start through it so loopback ports reach the harness. */
const INIT_IN_SANDBOX = `${SANDBOX_PATHS.runtime}/init.mjs`;

/** Paths inside a container: the upstream layout, as in the other backends. */
export const DOCKER_PATHS: SandboxPaths = CONTAINER_PATHS;

/** Seconds a command gets between SIGTERM and SIGKILL when its own time limit ends. */
const KILL_AFTER_S = STOP_GRACE_MS / 1000;

/** Container name of a run; a fixed prefix lets operators find and remove leftovers. */
export function containerName(spec: Pick<SandboxSpec, "id">): string {
  return `mlebench-${spec.id}`;
}

/** The docker CLI to call: MLEBENCH_DOCKER (tests point it at a fake), else `docker` on PATH. */
export function dockerBinary(env: NodeJS.ProcessEnv = process.env): string {
  return env.MLEBENCH_DOCKER || "docker";
}

/** The agent image: MLEBENCH_DOCKER_IMAGE, else mlebench-agent. */
export function dockerImage(env: NodeJS.ProcessEnv = process.env): string {
  return env.MLEBENCH_DOCKER_IMAGE || DEFAULT_DOCKER_IMAGE;
}

/** `-v` splits on ':', so a host path containing one would silently mount the wrong thing. */
function bindSource(hostPath: string, what: string): string {
  if (hostPath.includes(":") || hostPath.includes("\n")) {
    throw new Error(`Cannot bind-mount ${what} into a Docker sandbox: its path contains ':' or a newline (${hostPath})`);
  }
  return path.resolve(hostPath);
}

/**
 * Arguments of `docker <args>` that start a run's container: no network, no capabilities, a
 * read-only image, the run's limits (a null limit adds no flag), and only the mounts the spec
 * names. The container idles under `sleep infinity`; commands enter it with `docker exec` as the
 * agent's uid, and it stays (no --rm) until close() so its OOM state can still be read. Its own
 * processes (Docker's init and the idle sleep) run as uid 0 without any capability, so the
 * agent can neither trace nor signal them, as under bwrap, where pid 1 is not the agent's either.
 * Every folder of /sys but fs/ (where the container's own cgroup files are) is an empty tmpfs,
 * unless GPUs are given, whose libraries read the PCI tree.
 */
export function dockerRunArgs(
  spec: SandboxSpec,
  image: string,
  uid: number,
  initScript: string = DOCKER_INIT_SCRIPT,
): string[] {
  const { limits } = spec;
  const args = [
    "run",
    "--detach",
    "--name",
    containerName(spec),
    "--label",
    `mlebench.run=${spec.id}`,
    // A proxied run still has no interface: the proxy is reached through a mounted socket.
    "--network",
    "none",
    "--cap-drop",
    "ALL",
    "--security-opt",
    "no-new-privileges",
    "--user",
    "0:0",
    "--label",
    `mlebench.uid=${uid}`,
    "--read-only",
    // Docker's tiny init as PID 1 reaps orphans of exec'd commands, which `sleep` would leave as zombies.
    "--init",
    // The idle processes' folder; every exec names the command's own.
    "--workdir",
    "/",
    "--tmpfs",
    `/tmp:rw,exec,nosuid,nodev,mode=1777${limits.tmpBytes !== null ? `,size=${limits.tmpBytes}` : ""}`,
  ];
  // /dev/shm is memory too (PyTorch data loaders live in it); it gets the same cap as /tmp.
  if (limits.tmpBytes !== null) args.push("--shm-size", String(limits.tmpBytes));
  if (spec.gpus.length === 0) for (const d of SYS_HIDDEN) args.push("--tmpfs", `/sys/${d}:ro,nosuid,nodev,noexec,size=4k`);
  if (limits.pids !== null) args.push("--pids-limit", String(limits.pids));
  if (limits.memoryBytes !== null) {
    // Equal memory and memory+swap: the limit cannot be dodged by swapping.
    args.push("--memory", String(limits.memoryBytes), "--memory-swap", String(limits.memoryBytes));
  }
  if (limits.cpus !== null) args.push("--cpus", String(limits.cpus));
  if (spec.gpus.length > 0) {
    // The CLI reads --gpus as CSV, so a list of devices must be quoted to stay one field.
    args.push("--gpus", `"device=${spec.gpus.join(",")}"`);
  }
  args.push("--volume", `${bindSource(spec.dataDir, "the data dir")}:${SANDBOX_PATHS.data}:ro`);
  for (const name of WRITABLE_DIRS) {
    args.push("--volume", `${bindSource(spec.writable[name], `/home/${name}`)}:${SANDBOX_PATHS.home}/${name}:rw`);
  }
  // The image brings node; the init comes from this checkout so both always match.
  if (!(INIT_IN_SANDBOX in spec.files)) args.push("--volume", `${bindSource(initScript, "the init script")}:${INIT_IN_SANDBOX}:ro`);
  for (const [inside, host] of Object.entries(spec.files)) {
    args.push("--volume", `${bindSource(host, inside)}:${inside}:ro`);
  }
  for (const socket of spec.sockets) {
    args.push("--volume", `${bindSource(socket.hostPath, socket.name)}:${SANDBOX_PATHS.runtime}/${socket.name}`);
  }
  // The agent image installs the same Debian datasets offline competitions are cut from.
  for (const hidden of spec.hidden ?? []) {
    if (fs.statSync(hidden, { throwIfNoEntry: false })?.isDirectory()) args.push("--tmpfs", `${hidden}:ro,size=1k`);
    else args.push("--volume", `/dev/null:${hidden}:ro`);
  }
  for (const [key, value] of Object.entries(spec.env)) args.push("--env", `${key}=${value}`);
  args.push(image, "sleep", "infinity");
  return args;
}

/** The folders of /sys covered in a CPU-only container: the host's devices, buses, kernel and modules. */
const SYS_HIDDEN = ["block", "bus", "class", "dev", "devices", "firmware", "kernel", "module", "power"];

/** How a command starts inside the container: through the init, which forwards the loopback ports to the harness sockets. */
export function dockerEntryArgv(spec: Pick<SandboxSpec, "sockets">, command: string[]): string[] {
  // Every signal init gets in a container reaches the command directly too (see init's --shared-signals).
  const out = ["node", INIT_IN_SANDBOX, "--shared-signals"];
  for (const s of spec.sockets) {
    if (s.loopbackPort !== undefined) out.push("--forward", `${s.loopbackPort}=${SANDBOX_PATHS.runtime}/${s.name}`);
  }
  out.push("--", ...command);
  return out;
}

/** The docker client's own environment: it needs DOCKER_HOST, HOME and PATH; none of it reaches the container. */
function clientEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

/** Run the docker CLI to completion; a CLI that cannot be started reads as exit 127 with the reason. */
async function docker(args: string[], timeoutMs = 60_000): Promise<ProcessResult> {
  const bin = dockerBinary();
  try {
    return await runProcess([bin, ...args], { env: clientEnv(), timeoutMs, graceMs: 1000 });
  } catch (e) {
    return {
      pid: -1,
      exitCode: 127,
      signal: null,
      timedOut: false,
      stdout: "",
      stderr: `${(e as Error).message} (set MLEBENCH_DOCKER to the docker CLI's path if it is not on PATH)\n`,
      truncated: false,
      wallMs: 0,
    };
  }
}

/** The line of the client's output worth quoting: the first non-empty one of stderr, else of stdout (where `docker exec` puts the runtime's errors). */
function errorLine(r: ProcessResult): string {
  const first = (text: string) => text.split("\n").map((l) => l.trim()).find((l) => l !== "");
  const line = first(r.stderr) ?? first(r.stdout);
  if (line) return line;
  return r.timedOut ? "timed out" : `exit status ${r.exitCode ?? r.signal}`;
}

/** What `docker version` and `docker image inspect` say about this machine. */
export interface DockerProbe {
  /** Server version, or null when the engine did not answer. */
  engine: string | null;
  /** The client's complaint when the engine did not answer. */
  error: string | null;
  image: string;
  /** Whether the image exists locally; null when the engine could not be asked. */
  imagePresent: boolean | null;
}

/** Ask the engine for its version and whether the agent image is built (shared by the backend and doctor). */
export async function probeDocker(timeoutMs = 20_000): Promise<DockerProbe> {
  const image = dockerImage();
  const version = await docker(["version", "--format", "{{.Server.Version}}"], timeoutMs);
  if (version.exitCode !== 0 || version.stdout.trim() === "") {
    return { engine: null, error: errorLine(version), image, imagePresent: null };
  }
  const inspect = await docker(["image", "inspect", "--format", "{{.Id}}", image], timeoutMs);
  return { engine: version.stdout.trim(), error: null, image, imagePresent: inspect.exitCode === 0 };
}

/** null when Docker runs sandboxes here, else what is wrong and what to do about it. */
export function describeDockerProbe(p: DockerProbe): string | null {
  if (p.engine === null) {
    return (
      `the Docker engine is not reachable (${p.error}); start the Docker daemon and check that this user ` +
      `may use it, or use --sandbox bwrap`
    );
  }
  if (p.imagePresent === false) {
    return `the Docker image "${p.image}" is missing; build it with: ${buildImageAdvice(p.image)}`;
  }
  return null;
}

/** Knobs for tests and operators; the exported dockerBackend uses the defaults. */
export interface DockerBackendOptions {
  /** Sampling interval when the spec sets no pollMs, ms (default 10 s). */
  pollMs?: number;
}

/** A result for a command that never ran because the run is already over. */
function notRun(reason: ExitReason): ExecResult {
  return {
    exitCode: null,
    signal: null,
    reason,
    stdout: "",
    stderr: `the sandbox was already stopped (${reason})\n`,
    truncated: false,
    wallMs: 0,
  };
}

/** One run's container. */
class DockerSandbox implements Sandbox {
  readonly backend = "docker";
  readonly image: string;
  readonly paths = DOCKER_PATHS;
  private readonly name: string;
  private readonly user: string;
  private readonly deadline: number;
  private readonly budget: OutputBudget;
  private killedReason: ExitReason | null = null;
  private killing: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  private wallTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  /** `docker exec` clients running agent commands now. */
  private inFlight = 0;
  private readonly peak: ResourcePeaks = {
    memoryBytes: null,
    pids: null,
    cpuSeconds: null,
    diskBytes: null,
    oomKills: null,
  };

  constructor(
    private readonly spec: SandboxSpec,
    image: string,
    uid: number,
    readonly warnings: string[],
    private readonly pollMs: number,
    private readonly cleanup: () => void = () => {},
    readonly agentOwner?: { uid: number; gid: number },
  ) {
    this.name = containerName(spec);
    this.image = image;
    this.user = `${uid}:${uid}`;
    this.budget = new OutputBudget(spec.limits.outputBytes);
    this.deadline = spec.limits.wallMs === null ? Infinity : Date.now() + spec.limits.wallMs;
    if (spec.limits.wallMs !== null) {
      // The wall limit holds between commands too, when no exec is there to notice it.
      this.wallTimer = setTimeout(() => void this.kill("time_limit"), spec.limits.wallMs);
      this.wallTimer.unref();
    }
    this.schedulePoll();
  }

  /** Bytes of agent output dropped because the run's output cap was reached. */
  get droppedOutput(): number {
    return this.budget.dropped;
  }

  /** Run argv in the container via `docker exec`, under the command's own limit and the run's wall limit. */
  async exec(argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
    if (this.closing !== null) throw new Error("sandbox is closed");
    if (argv.length === 0) throw new Error("exec needs a command");
    if (this.killedReason === null && Date.now() >= this.deadline) await this.kill("time_limit");
    if (this.killedReason !== null) return notRun(this.killedReason);

    const remaining = this.deadline - Date.now();
    const own = opts.timeoutMs ?? Infinity;
    // Only the run's wall limit ends the whole container. A command's own limit ends just that
    // command, through coreutils `timeout` inside, which signals the command's whole process group.
    const ownLimitFirst = own < remaining;
    const entry = dockerEntryArgv(this.spec, argv);
    const command = ownLimitFirst
      ? ["timeout", "-k", String(KILL_AFTER_S), String(Math.max(own, 1) / 1000), ...entry]
      : entry;
    const args = ["exec", "--user", this.user];
    if (opts.input !== undefined) args.push("--interactive");
    args.push("--workdir", opts.cwd ?? this.paths.workspace);
    for (const [k, v] of Object.entries(opts.env ?? {})) args.push("--env", `${k}=${v}`);
    args.push(this.name, ...command);

    let hostTimeout: number | undefined;
    if (ownLimitFirst) hostTimeout = own + (KILL_AFTER_S + 5) * 1000; // backstop should `timeout` itself hang
    else if (Number.isFinite(remaining)) hostTimeout = remaining;

    let r: ProcessResult;
    this.inFlight++;
    try {
      r = await runProcess([dockerBinary(), ...args], {
        env: clientEnv(),
        input: opts.input,
        timeoutMs: hostTimeout,
        outputLimit: opts.outputLimit,
        logFile: opts.logFile,
        budget: this.budget,
        onOutput: opts.onOutput,
        onTimeout: (pid) => {
          if (ownLimitFirst) {
            terminateGroup(pid, 2000);
            return;
          }
          // The client ends when the command does; killing it would only lose the command's last
          // output, and leave the command running inside.
          void this.kill("time_limit");
          setTimeout(() => terminateGroup(pid, 2000), STOP_GRACE_MS + 30_000).unref();
        },
      });
    } catch (e) {
      return { ...notRun("crashed"), stderr: `${(e as Error).message}\n` };
    } finally {
      this.inFlight--;
    }
    if (this.killing !== null) await this.killing;
    const reason = await this.reasonFor(r, ownLimitFirst ? own : null);
    return {
      exitCode: r.exitCode,
      signal: r.signal,
      reason,
      stdout: r.stdout,
      stderr: r.stderr,
      truncated: r.truncated,
      wallMs: r.wallMs,
    };
  }

  /** Map how `docker exec` ended onto the contract's reasons. */
  private async reasonFor(r: ProcessResult, ownLimitMs: number | null): Promise<ExitReason> {
    if (this.killedReason !== null) return this.killedReason;
    if (r.timedOut) return "time_limit";
    // `timeout` exits 124 after its TERM, and 137 when the command needed a KILL.
    if (ownLimitMs !== null && r.wallMs >= ownLimitMs && (r.exitCode === 124 || r.exitCode === 137)) {
      return "time_limit";
    }
    if (r.exitCode === 0) return "finished";
    // Only a failure needs the counters at once (the peaks are high-water marks, read at each poll and at the end).
    const oomBefore = this.peak.oomKills ?? 0;
    await this.readCgroup();
    if ((this.peak.oomKills ?? 0) > oomBefore) return "oom";
    // Docker's OOMKilled flag covers the container's pid 1, for engines whose counter was unreadable.
    if (r.exitCode === 137 && this.peak.oomKills === null) {
      const inspect = await docker(["inspect", "--format", "{{.State.OOMKilled}}", this.name], 20_000);
      if (inspect.exitCode === 0 && inspect.stdout.trim() === "true") {
        this.peak.oomKills = 1;
        return "oom";
      }
    }
    return "crashed";
  }

  /**
   * Fold the container's cgroup counters into the peaks: the kernel's own memory high-water mark
   * and OOM kill count (the victim is often a child of the command, which Docker's OOMKilled
   * flag does not cover), CPU time and processes. Read from inside, as the idle uid 0 without
   * capabilities, so it works with any engine and cgroup driver; a stopped container reads nothing.
   */
  private async readCgroup(): Promise<void> {
    const r = await docker(["exec", "--user", "0:0", this.name, "sh", "-c", CGROUP_SCRIPT], 20_000);
    if (r.exitCode !== 0) return;
    const counters = parseCgroupCounters(r.stdout);
    const max = (a: number | null, b: number | undefined) => (b === undefined ? a : Math.max(a ?? 0, b));
    this.peak.memoryBytes = max(this.peak.memoryBytes, counters.memoryPeak);
    this.peak.pids = max(this.peak.pids, counters.pids);
    if (counters.cpuSeconds !== undefined) this.peak.cpuSeconds = counters.cpuSeconds;
    if (counters.oomKills !== undefined) this.peak.oomKills = counters.oomKills;
  }

  /**
   * Stop the run: SIGTERM to every process of the agent's uid (the idle processes are uid 0's),
   * up to STOP_GRACE_MS for running commands to save their work and end, then `docker kill`:
   * everything in the container dies at once, whatever process groups it made.
   */
  async kill(reason: ExitReason): Promise<void> {
    if (this.killedReason === null) this.killedReason = reason; // the first cause is the one reported
    if (this.killing === null) {
      this.killing = (async () => {
        if (this.inFlight > 0) {
          await docker(["exec", "--user", this.user, this.name, "sh", "-c", "kill -TERM -1"], 20_000);
          const until = Date.now() + STOP_GRACE_MS;
          while (this.inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        }
        // The cgroup goes with the container's processes.
        await this.readCgroup();
        await docker(["kill", this.name], 30_000);
      })();
    }
    await this.killing;
  }

  /** Highest values seen in the cgroup reads and disk polls so far (null: never measured). */
  peaks(): ResourcePeaks {
    return { ...this.peak };
  }

  /** Poll while the container lives: one sample at a time, never keeping the harness alive. */
  private schedulePoll(): void {
    if (this.closing !== null || this.killedReason !== null) return;
    this.pollTimer = setTimeout(() => void this.sample().finally(() => this.schedulePoll()), this.pollMs);
    this.pollTimer.unref();
  }

  /** One look at memory, processes and disk; the disk cap is enforced here because Docker cannot cap bind mounts. */
  private async sample(): Promise<void> {
    if (this.closing !== null) return;
    await this.readCgroup();
    await this.sampleDisk();
    const cap = this.spec.limits.diskBytes;
    if (cap !== null && (this.peak.diskBytes ?? 0) > cap && this.killedReason === null && this.closing === null) {
      await this.kill("disk_limit");
    }
  }

  /** Bind mounts are plain host dirs, so their size is measured on the host. */
  private async sampleDisk(): Promise<void> {
    const extra = this.spec.diskExtra?.() ?? 0;
    const used = (this.spec.diskUsed ? this.spec.diskUsed() : await measureDisk(WRITABLE_DIRS.map((d) => this.spec.writable[d]), [])) + extra;
    this.peak.diskBytes = Math.max(this.peak.diskBytes ?? 0, used);
  }

  /** Remove the container (`docker rm --force`); later calls wait for the first. */
  async close(): Promise<void> {
    if (this.closing === null) {
      clearTimeout(this.wallTimer);
      clearTimeout(this.pollTimer);
      this.closing = (async () => {
        // Last samples so the peaks cover what the agent did and left behind.
        if (this.killing === null) await this.readCgroup();
        await this.sampleDisk();
        await docker(["rm", "--force", this.name], 60_000);
        this.cleanup();
      })();
    }
    await this.closing;
  }
}

/**
 * Prints the container's cgroup counters as `name value` lines, cgroup v2 first, then v1 (whose
 * controllers Docker mounts one per folder, cpu and cpuacct sometimes together).
 */
const CGROUP_SCRIPT = [
  "cd /sys/fs/cgroup || exit 1",
  "if [ -f memory.events ]; then",
  "  sed -n 's/^oom_kill /oom_kill /p' memory.events",
  "  [ -f memory.peak ] && echo \"memory_peak $(cat memory.peak)\"",
  "  sed -n 's/^usage_usec /cpu_usec /p' cpu.stat",
  "  echo \"pids $(cat pids.peak 2>/dev/null || cat pids.current)\"",
  "else",
  "  sed -n 's/^oom_kill /oom_kill /p' memory/memory.oom_control",
  "  echo \"memory_peak $(cat memory/memory.max_usage_in_bytes)\"",
  "  echo \"cpu_ns $(cat cpuacct/cpuacct.usage 2>/dev/null || cat cpu,cpuacct/cpuacct.usage)\"",
  "  echo \"pids $(cat pids/pids.current)\"",
  "fi",
].join("\n");

/** What CGROUP_SCRIPT printed; a counter it could not read is left out. */
export function parseCgroupCounters(text: string): { memoryPeak?: number; oomKills?: number; cpuSeconds?: number; pids?: number } {
  const out: { memoryPeak?: number; oomKills?: number; cpuSeconds?: number; pids?: number } = {};
  for (const line of text.split("\n")) {
    const m = /^(\w+) (\d+)$/.exec(line.trim());
    if (!m) continue;
    const v = Number(m[2]);
    if (m[1] === "memory_peak") out.memoryPeak = v;
    else if (m[1] === "oom_kill") out.oomKills = v;
    else if (m[1] === "cpu_usec") out.cpuSeconds = v / 1e6;
    else if (m[1] === "cpu_ns") out.cpuSeconds = v / 1e9;
    else if (m[1] === "pids") out.pids = v;
  }
  return out;
}

/** A Docker backend; `dockerBackend` is the one the CLI uses. */
export function createDockerBackend(options: DockerBackendOptions = {}): SandboxBackend {
  return {
    name: "docker",
    async unavailable() {
      return describeDockerProbe(await probeDocker());
    },
    async create(spec: SandboxSpec): Promise<Sandbox> {
      const hostUid = process.getuid?.() ?? AGENT_UID;
      // The harness's own uid keeps files in the writable dirs the user's; root gives each run a
      // host uid of its own (named `agent` in the container's passwd), as the bwrap backend does.
      const lease = hostUid === 0 ? leaseUid() : null;
      const uid = lease?.uid ?? hostUid;
      const etcDir = lease ? fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-etc-")) : null;
      const cleanup = () => {
        if (etcDir) fs.rmSync(etcDir, { recursive: true, force: true });
        lease?.release();
      };
      let run = spec;
      try {
        if (lease && etcDir) {
          fs.chmodSync(etcDir, 0o755);
          const ids = identityFiles(uid);
          for (const f of ["passwd", "group"] as const) fs.writeFileSync(path.join(etcDir, f), ids[f], { mode: 0o644 });
          run = { ...spec, files: { ...spec.files, "/etc/passwd": path.join(etcDir, "passwd"), "/etc/group": path.join(etcDir, "group") } };
          for (const name of WRITABLE_DIRS) await chownTree(spec.writable[name], uid, uid);
          // Connecting to a Unix socket needs write permission on it.
          for (const s of spec.sockets) fs.chownSync(s.hostPath, uid, uid);
        }
      } catch (e) {
        cleanup();
        throw e;
      }
      // A half-created container would hold the name; remove whatever exists.
      const abandon = async () => {
        cleanup();
        await docker(["rm", "--force", containerName(spec)], 60_000);
      };
      const image = spec.image ?? dockerImage();
      const r = await docker(dockerRunArgs(run, image, uid), 300_000);
      if (r.exitCode !== 0) {
        await abandon();
        const hint = /no such image|unable to find image|pull access denied/i.test(r.stderr)
          ? `; build the image with: ${buildImageAdvice(image)}`
          : /could not select device driver .*gpu/i.test(r.stderr)
            ? "; --gpus under docker needs the NVIDIA Container Toolkit on this host (nvidia-ctk runtime configure --runtime=docker, then restart dockerd), or use --sandbox bwrap"
            : "";
        throw new Error(`docker run failed: ${errorLine(r)}${hint}`);
      }
      // Every command starts through the init, which is a Node script: an agent's own image must have node.
      const probe = await docker(["exec", "--user", "0:0", containerName(spec), "node", "-e", "0"], 60_000);
      if (probe.exitCode !== 0) {
        await abandon();
        throw new Error(
          `the image ${image} cannot run the harness's init (${errorLine(probe)}): it needs Node.js 18 or newer as \`node\` on PATH ` +
            `(Debian: apt-get install nodejs); build agents' images FROM ${DEFAULT_DOCKER_IMAGE}, which has it`,
        );
      }
      // The engine says on stderr which limits this kernel cannot enforce; run.json keeps them.
      const warnings = r.stderr
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => /^WARNING:/i.test(l))
        .map((l) => `docker: ${l.replace(/^WARNING:\s*/i, "")}`);
      return new DockerSandbox(run, image, uid, warnings, spec.pollMs ?? options.pollMs ?? 10_000, cleanup, lease ? { uid, gid: uid } : undefined);
    },
  };
}

/** Sandboxes as Docker containers (`--sandbox docker`). */
export const dockerBackend: SandboxBackend = createDockerBackend();

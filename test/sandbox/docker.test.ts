// The docker backend against a fake `docker` CLI: the exact arguments handed to the CLI, the order
// of the commands the sandbox issues, and how their outcomes map onto exit reasons. The same
// backend on a real engine (containers, cgroup limits, OOM kills, escapes) is tested by the
// sandbox suites that run per backend (test/helpers/backends.ts) and test/sandbox/docker-engine.test.ts.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AGENT_UID,
  DOCKER_INIT_SCRIPT,
  buildImageAdvice,
  createDockerBackend,
  dockerBackend,
  dockerEntryArgv,
  dockerRunArgs,
  parseCgroupCounters,
} from "../../src/sandbox/docker.js";
import type { Limits, SandboxSpec } from "../../src/sandbox/types.js";

const NO_LIMITS: Limits = {
  wallMs: null,
  memoryBytes: null,
  pids: null,
  cpus: null,
  diskBytes: null,
  tmpBytes: null,
  outputBytes: 1 << 20,
};

function fullSpec(): SandboxSpec {
  return {
    id: "run-1",
    dataDir: "/srv/comp/public",
    writable: { submission: "/r/sub", code: "/r/code", logs: "/r/logs", workspace: "/r/ws", agent: "/r/agent" },
    files: { "/home/instructions.txt": "/r/instructions.txt", "/home/validate_submission.sh": "/r/validate.sh" },
    sockets: [
      { hostPath: "/r/validate.sock", name: "validate.sock", loopbackPort: 5000 },
      { hostPath: "/r/proxy.sock", name: "proxy.sock" },
    ],
    env: { HOME: "/home/workspace", LANG: "C.UTF-8" },
    limits: {
      wallMs: 3_600_000,
      memoryBytes: 8 * 1024 ** 3,
      pids: 512,
      cpus: 4,
      diskBytes: 10 * 1024 ** 3,
      tmpBytes: 1024 ** 3,
      outputBytes: 1 << 20,
    },
    gpus: [0, 1],
    network: "none",
  };
}

describe("dockerRunArgs", () => {
  it("builds the full command for a spec with every limit, file, socket and GPU", () => {
    expect(dockerRunArgs(fullSpec(), "mlebench-agent", 1001, "/opt/init.js")).toEqual([
      "run",
      "--detach",
      "--name",
      "mlebench-run-1",
      "--label",
      "mlebench.run=run-1",
      "--network",
      "none",
      "--cap-drop",
      "ALL",
      "--security-opt",
      "no-new-privileges",
      "--user",
      "0:0",
      "--label",
      "mlebench.uid=1001",
      "--read-only",
      "--init",
      "--workdir",
      "/",
      "--tmpfs",
      "/tmp:rw,exec,nosuid,nodev,mode=1777,size=1073741824",
      "--shm-size",
      "1073741824",
      "--pids-limit",
      "512",
      "--memory",
      "8589934592",
      "--memory-swap",
      "8589934592",
      "--cpus",
      "4",
      "--gpus",
      '"device=0,1"',
      "--volume",
      "/srv/comp/public:/home/data:ro",
      "--volume",
      "/r/sub:/home/submission:rw",
      "--volume",
      "/r/code:/home/code:rw",
      "--volume",
      "/r/logs:/home/logs:rw",
      "--volume",
      "/r/ws:/home/workspace:rw",
      "--volume",
      "/r/agent:/home/agent:rw",
      "--volume",
      "/opt/init.js:/run/mlebench/init.mjs:ro",
      "--volume",
      "/r/instructions.txt:/home/instructions.txt:ro",
      "--volume",
      "/r/validate.sh:/home/validate_submission.sh:ro",
      "--volume",
      "/r/validate.sock:/run/mlebench/validate.sock",
      "--volume",
      "/r/proxy.sock:/run/mlebench/proxy.sock",
      "--env",
      "HOME=/home/workspace",
      "--env",
      "LANG=C.UTF-8",
      "mlebench-agent",
      "sleep",
      "infinity",
    ]);
  });

  it("omits every flag whose limit is null, and --gpus on a CPU-only run", () => {
    const spec: SandboxSpec = {
      ...fullSpec(),
      id: "min",
      files: {},
      sockets: [],
      env: {},
      limits: NO_LIMITS,
      gpus: [],
    };
    expect(dockerRunArgs(spec, "img:1", 1000, "/opt/init.js")).toEqual([
      "run",
      "--detach",
      "--name",
      "mlebench-min",
      "--label",
      "mlebench.run=min",
      "--network",
      "none",
      "--cap-drop",
      "ALL",
      "--security-opt",
      "no-new-privileges",
      "--user",
      "0:0",
      "--label",
      "mlebench.uid=1000",
      "--read-only",
      "--init",
      "--workdir",
      "/",
      "--tmpfs",
      "/tmp:rw,exec,nosuid,nodev,mode=1777",
      "--tmpfs",
      "/sys/block:ro,nosuid,nodev,noexec,size=4k",
      "--tmpfs",
      "/sys/bus:ro,nosuid,nodev,noexec,size=4k",
      "--tmpfs",
      "/sys/class:ro,nosuid,nodev,noexec,size=4k",
      "--tmpfs",
      "/sys/dev:ro,nosuid,nodev,noexec,size=4k",
      "--tmpfs",
      "/sys/devices:ro,nosuid,nodev,noexec,size=4k",
      "--tmpfs",
      "/sys/firmware:ro,nosuid,nodev,noexec,size=4k",
      "--tmpfs",
      "/sys/kernel:ro,nosuid,nodev,noexec,size=4k",
      "--tmpfs",
      "/sys/module:ro,nosuid,nodev,noexec,size=4k",
      "--tmpfs",
      "/sys/power:ro,nosuid,nodev,noexec,size=4k",
      "--volume",
      "/srv/comp/public:/home/data:ro",
      "--volume",
      "/r/sub:/home/submission:rw",
      "--volume",
      "/r/code:/home/code:rw",
      "--volume",
      "/r/logs:/home/logs:rw",
      "--volume",
      "/r/ws:/home/workspace:rw",
      "--volume",
      "/r/agent:/home/agent:rw",
      "--volume",
      "/opt/init.js:/run/mlebench/init.mjs:ro",
      "img:1",
      "sleep",
      "infinity",
    ]);
  });

  it("passes one GPU, mounts the build's init by default, and lets spec.files supply its own init", () => {
    const spec = { ...fullSpec(), gpus: [3] };
    const args = dockerRunArgs(spec, "i", 1000);
    expect(args[args.indexOf("--gpus") + 1]).toBe('"device=3"');
    expect(args).toContain(`${DOCKER_INIT_SCRIPT}:/run/mlebench/init.mjs:ro`);
    const own = { ...spec, files: { "/run/mlebench/init.mjs": "/x/init.mjs" } };
    const withOwn = dockerRunArgs(own, "i", 1000);
    expect(withOwn.filter((a) => a.endsWith(":/run/mlebench/init.mjs:ro"))).toEqual(["/x/init.mjs:/run/mlebench/init.mjs:ro"]);
  });

  it("refuses host paths that -v would split at a colon", () => {
    expect(() => dockerRunArgs({ ...fullSpec(), dataDir: "/a:b" }, "i", 1000)).toThrow(/contains ':'/);
  });
});

describe("helpers", () => {
  it("starts commands through the init with the loopback forwards", () => {
    expect(dockerEntryArgv(fullSpec(), ["python3", "main.py"])).toEqual([
      "node",
      "/run/mlebench/init.mjs",
      "--shared-signals",
      "--forward",
      "5000=/run/mlebench/validate.sock",
      "--",
      "python3",
      "main.py",
    ]);
  });

  it("reads the cgroup counters of v2 and v1, leaving out what could not be read", () => {
    expect(parseCgroupCounters("oom_kill 2\nmemory_peak 1048576\ncpu_usec 2500000\npids 7\n")).toEqual({
      oomKills: 2,
      memoryPeak: 1048576,
      cpuSeconds: 2.5,
      pids: 7,
    });
    expect(parseCgroupCounters("oom_kill 0\nmemory_peak 4096\ncpu_ns 1500000000\npids \n")).toEqual({
      oomKills: 0,
      memoryPeak: 4096,
      cpuSeconds: 1.5,
    });
  });
});

/** Environment variables a test changes, restored afterwards. */
const saved: Record<string, string | undefined> = {};
function setEnv(vars: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(vars)) {
    if (!(k in saved)) saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
    delete saved[k];
  }
});

const tempDirs: string[] = [];
afterAll(() => {
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

function writeScript(file: string, text: string): string {
  fs.writeFileSync(file, text, { mode: 0o755 });
  return file;
}

describe("unavailable()", () => {
  const hasClient = spawnSync("docker", ["--version"]).status === 0;

  it.skipIf(!hasClient)("names the real client's complaint when the engine cannot be reached", async () => {
    const dir = tempDir("mlebench-docker-none-");
    // A socket nobody serves: unreachable even on a machine that does run an engine.
    setEnv({ MLEBENCH_DOCKER: undefined, DOCKER_HOST: `unix://${dir}/nobody.sock`, DOCKER_CONTEXT: undefined });
    const message = await dockerBackend.unavailable();
    expect(message).toMatch(/Docker engine is not reachable \(.*\S.*\)/);
    expect(message).toContain("nobody.sock");
    expect(message).toContain("--sandbox bwrap");
  });

  it("quotes a failing `docker` found on PATH", async () => {
    const dir = tempDir("mlebench-docker-path-");
    writeScript(
      path.join(dir, "docker"),
      "#!/bin/sh\necho 'Cannot connect to the Docker daemon at unix:///fake.sock. Is the docker daemon running?' >&2\nexit 1\n",
    );
    setEnv({ MLEBENCH_DOCKER: undefined, PATH: `${dir}${path.delimiter}${process.env.PATH}` });
    const message = await dockerBackend.unavailable();
    expect(message).toBe(
      "the Docker engine is not reachable (Cannot connect to the Docker daemon at unix:///fake.sock. " +
        "Is the docker daemon running?); start the Docker daemon and check that this user may use it, " +
        "or use --sandbox bwrap",
    );
  });

  it("says when the docker CLI itself cannot be started", async () => {
    setEnv({ MLEBENCH_DOCKER: "/nonexistent/docker" });
    const message = await dockerBackend.unavailable();
    expect(message).toMatch(/not reachable \(Cannot start \/nonexistent\/docker/);
  });

  it("gives the build command when the image is missing", async () => {
    const fake = makeFake({ image: false });
    setEnv({ MLEBENCH_DOCKER: fake.bin, MLEBENCH_DOCKER_IMAGE: undefined });
    expect(await dockerBackend.unavailable()).toBe(
      `the Docker image "mlebench-agent" is missing; build it with: ${buildImageAdvice("mlebench-agent")}`,
    );
    expect(buildImageAdvice("mlebench-agent")).toMatch(/^sudo bash \/\S+\/scripts\/build-agent-image\.sh \(offline, from the Debian archive\), or where Docker Hub is reachable: docker build -t mlebench-agent -f \/\S+\/docker\/agent\.Dockerfile \/\S+\/docker$/);
    expect(buildImageAdvice("mine:2")).toContain("build-agent-image.sh --tag mine:2 ");
    for (const f of [/build-agent-image\.sh/, /agent\.Dockerfile/]) {
      const file = buildImageAdvice("x").split(" ").find((w) => f.test(w))!;
      expect(fs.existsSync(file), file).toBe(true);
    }
    expect(fake.calls().map((c) => c.slice(0, 2))).toEqual([
      ["version", "--format"],
      ["image", "inspect"],
    ]);
  });

  it("is null when the engine answers and the image (MLEBENCH_DOCKER_IMAGE) exists", async () => {
    const fake = makeFake({});
    setEnv({ MLEBENCH_DOCKER: fake.bin, MLEBENCH_DOCKER_IMAGE: "custom:2" });
    expect(await dockerBackend.unavailable()).toBeNull();
    expect(fake.calls()[1]).toEqual(["image", "inspect", "--format", "{{.Id}}", "custom:2"]);
  });
});

interface FakeOptions {
  image?: boolean;
  /** The image has no node. */
  noNode?: boolean;
  runFails?: string;
}

interface Fake {
  bin: string;
  dir: string;
  calls(): string[][];
  set(name: "oomkilled" | "oom_kill" | "cgroup", value: string): void;
  waitForExec(): Promise<void>;
}

/**
 * A `docker` stand-in: logs each argv as a JSON line, answers version/inspect/stats from files in
 * its directory, and runs exec'd commands on the host (minus the init prefix) so their exit
 * statuses, output and timeouts are real; `kill` SIGKILLs whatever exec started.
 */
function makeFake(opts: FakeOptions): Fake {
  const dir = tempDir("mlebench-fake-docker-");
  const script = `#!${process.execPath}
const fs = require("node:fs");
const path = require("node:path");
const { spawn } = require("node:child_process");
const dir = ${JSON.stringify(dir)};
const args = process.argv.slice(2);
fs.appendFileSync(path.join(dir, "calls.jsonl"), JSON.stringify(args) + "\\n");
const read = (name, dflt) => { try { return fs.readFileSync(path.join(dir, name), "utf8").trim(); } catch { return dflt; } };
const imagePresent = ${opts.image === false ? "false" : "true"};
const runFails = ${JSON.stringify(opts.runFails ?? null)};
switch (args[0]) {
  case "version":
    process.stdout.write("27.1.0\\n");
    break;
  case "image":
    if (!imagePresent) { process.stderr.write("Error: No such image: " + args[args.length - 1] + "\\n"); process.exit(1); }
    process.stdout.write("sha256:abc\\n");
    break;
  case "run":
    if (runFails) { process.stderr.write(runFails + "\\n"); process.exit(125); }
    process.stderr.write("WARNING: Your kernel does not support swap limit capabilities or the cgroup is not mounted. Memory limited without swap.\\n");
    process.stdout.write("0123456789ab\\n");
    break;
  case "inspect":
    process.stdout.write(read("oomkilled", "false") + "\\n");
    break;
  case "stats":
    process.stdout.write(JSON.stringify({ Name: args[args.length - 1], MemUsage: "12.5MiB / 1GiB", PIDs: "3" }) + "\\n");
    break;
  case "kill":
    for (const pid of read("pids", "").split("\\n").filter(Boolean)) { try { process.kill(Number(pid), "SIGKILL"); } catch {} }
    break;
  case "rm":
    break;
  case "exec": {
    let i = 1;
    const env = { ...process.env };
    while (args[i].startsWith("--")) {
      if (args[i] === "--interactive") { i += 1; continue; }
      if (args[i] === "--env") { const [k, ...v] = args[i + 1].split("="); env[k] = v.join("="); }
      i += 2;
    }
    let cmd = args.slice(i + 1);
    if (cmd[0] === "sh" && cmd[2] && cmd[2].includes("memory.events")) {
      if (read("cgroup", "") === "unreadable") process.exit(1);
      process.stdout.write("oom_kill " + read("oom_kill", "0") + "\\nmemory_peak 13107200\\ncpu_usec 1500000\\npids 3\\n");
      break;
    }
    if (cmd[0] === "node" && cmd[1] === "-e" && cmd[2] === "0") {
      if (${opts.noNode === true}) { process.stderr.write('OCI runtime exec failed: exec: "node": executable file not found in $PATH: unknown\\n'); process.exit(126); }
      break;
    }
    if (cmd[0] === "sh" && cmd[2] === "kill -TERM -1") {
      // The agent's processes, here the ones exec started on the host.
      for (const pid of read("pids", "").split("\\n").filter(Boolean)) { try { process.kill(Number(pid), "SIGTERM"); } catch {} }
      break;
    }
    const prefix = cmd[0] === "timeout" ? cmd.slice(0, 4) : [];
    let rest = cmd.slice(prefix.length);
    if (rest[0] === "node" && rest[1] === "/run/mlebench/init.mjs") rest = rest.slice(rest.indexOf("--") + 1);
    cmd = [...prefix, ...rest];
    const child = spawn(cmd[0], cmd.slice(1), { stdio: "inherit", env });
    fs.appendFileSync(path.join(dir, "pids"), child.pid + "\\n");
    child.on("exit", (code, signal) => {
      fs.writeFileSync(path.join(dir, "exec-done"), "");
      process.exit(signal ? 128 + require("node:os").constants.signals[signal] : code);
    });
    fs.writeFileSync(path.join(dir, "exec-started"), "");
    return;
  }
  default:
    process.stderr.write("fake docker: unknown command " + args[0] + "\\n");
    process.exit(2);
}
`;
  const bin = writeScript(path.join(dir, "docker"), script);
  return {
    bin,
    dir,
    calls: () =>
      fs.existsSync(path.join(dir, "calls.jsonl"))
        ? fs
            .readFileSync(path.join(dir, "calls.jsonl"), "utf8")
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as string[])
        : [],
    set: (name, value) => fs.writeFileSync(path.join(dir, name), value),
    waitForExec: async () => {
      const started = path.join(dir, "exec-started");
      for (let i = 0; i < 200 && !fs.existsSync(started); i++) await new Promise((r) => setTimeout(r, 25));
      fs.rmSync(started, { force: true });
    },
  };
}

/** A spec over fresh temporary host dirs. */
function hostSpec(id: string, limits: Partial<Limits> = {}): SandboxSpec {
  const root = tempDir("mlebench-docker-run-");
  const mk = (name: string) => {
    const p = path.join(root, name);
    fs.mkdirSync(p);
    return p;
  };
  const sock = path.join(root, "validate.sock");
  fs.writeFileSync(sock, ""); // stands in for the socket: the backend only mounts (and maybe chowns) it
  return {
    id,
    dataDir: mk("public"),
    writable: { submission: mk("submission"), code: mk("code"), logs: mk("logs"), workspace: mk("workspace"), agent: mk("agent") },
    files: {},
    sockets: [{ hostPath: sock, name: "validate.sock", loopbackPort: 5000 }],
    env: { LANG: "C.UTF-8" },
    limits: { ...NO_LIMITS, ...limits },
    gpus: [],
    network: "none",
  };
}

const hostUid = process.getuid?.() ?? AGENT_UID;

/** The uid a `docker run` call gave the container (as root, one leased for the run). */
function runUid(call: string[]): number {
  return Number(call.find((a) => a.startsWith("mlebench.uid="))!.split("=")[1]);
}

describe("docker sandbox (fake CLI)", () => {
  let fake: Fake;
  beforeEach(() => {
    fake = makeFake({});
    setEnv({ MLEBENCH_DOCKER: fake.bin, MLEBENCH_DOCKER_IMAGE: undefined });
  });

  it("starts the container, runs commands through docker exec and removes it once on close", async () => {
    const spec = hostSpec("seq");
    const sandbox = await createDockerBackend().create(spec);
    expect(sandbox.backend).toBe("docker");
    expect(sandbox.paths.workspace).toBe("/home/workspace");
    expect(sandbox.warnings).toEqual([
      "docker: Your kernel does not support swap limit capabilities or the cgroup is not mounted. Memory limited without swap.",
    ]);
    const uid = runUid(fake.calls()[0]);
    if (hostUid === 0) {
      expect(uid).toBeGreaterThanOrEqual(1_900_000_000);
      expect(fs.statSync(spec.writable.code).uid).toBe(uid);
      expect(sandbox.agentOwner).toEqual({ uid, gid: uid });
      // The container's passwd names the run's uid `agent`.
      const passwd = fake.calls()[0].find((a) => a.endsWith(":/etc/passwd:ro"))!.split(":")[0];
      expect(fs.readFileSync(passwd, "utf8")).toContain(`agent:x:${uid}:${uid}:`);
      const files = { ...spec.files, "/etc/passwd": passwd, "/etc/group": fake.calls()[0].find((a) => a.endsWith(":/etc/group:ro"))!.split(":")[0] };
      expect(fake.calls()[0]).toEqual(dockerRunArgs({ ...spec, files }, "mlebench-agent", uid));
    } else {
      expect(uid).toBe(hostUid);
      expect(fake.calls()[0]).toEqual(dockerRunArgs(spec, "mlebench-agent", uid));
    }

    // The image must run the init: node is looked for first.
    expect(fake.calls()[1]).toEqual(["exec", "--user", "0:0", "mlebench-seq", "node", "-e", "0"]);
    const r = await sandbox.exec(["sh", "-c", "echo out; echo err >&2; echo $A"], { cwd: "/home/code", env: { A: "x=1" } });
    expect(r).toMatchObject({ exitCode: 0, reason: "finished", stdout: "out\nx=1\n", stderr: "err\n", truncated: false });
    expect(fake.calls()[2]).toEqual([
      "exec",
      "--user",
      `${uid}:${uid}`,
      "--workdir",
      "/home/code",
      "--env",
      "A=x=1",
      "mlebench-seq",
      "node",
      "/run/mlebench/init.mjs",
      "--shared-signals",
      "--forward",
      "5000=/run/mlebench/validate.sock",
      "--",
      "sh",
      "-c",
      "echo out; echo err >&2; echo $A",
    ]);

    const logFile = path.join(spec.writable.logs, "agent.log");
    const withInput = await sandbox.exec(["cat"], { input: "hello", logFile });
    expect(withInput.stdout).toBe("hello");
    expect(fs.readFileSync(logFile, "utf8")).toBe("hello");
    // A command that succeeded needs no look at the cgroup: the next call is the next command.
    expect(fake.calls()[3].slice(0, 6)).toEqual(["exec", "--user", `${uid}:${uid}`, "--interactive", "--workdir", "/home/workspace"]);

    await sandbox.close();
    await sandbox.close();
    const rms = fake.calls().filter((c) => c[0] === "rm");
    expect(rms).toEqual([["rm", "--force", "mlebench-seq"]]);
    await expect(sandbox.exec(["true"])).rejects.toThrow(/closed/);
  });

  it("maps exit statuses: crash, the cgroup's oom_kill counter, OOMKilled where the counter cannot be read", async () => {
    const sandbox = await createDockerBackend().create(hostSpec("oom"));
    try {
      const crash = await sandbox.exec(["sh", "-c", "exit 3"]);
      expect(crash).toMatchObject({ exitCode: 3, reason: "crashed" });
      // The backend reads the OOM counter (still 0 here), not the OOMKilled flag.
      const afterCrash = fake.calls().slice(-1)[0];
      expect(afterCrash.slice(0, 6)).toEqual(["exec", "--user", "0:0", "mlebench-oom", "sh", "-c"]);
      expect(afterCrash[6]).toContain("memory.events");
      expect(sandbox.peaks()).toMatchObject({ oomKills: 0, memoryBytes: 13107200, cpuSeconds: 1.5, pids: 3 });

      fake.set("oom_kill", "2");
      const child = await sandbox.exec(["sh", "-c", "exit 1"]);
      expect(child.reason).toBe("oom");
      expect(sandbox.peaks().oomKills).toBe(2);
      const again = await sandbox.exec(["sh", "-c", "exit 1"]);
      expect(again.reason).toBe("crashed"); // the counter did not move
    } finally {
      await sandbox.close();
    }
    const unreadable = await createDockerBackend().create(hostSpec("oom2"));
    try {
      fake.set("cgroup", "unreadable");
      fake.set("oomkilled", "true");
      const killed = await unreadable.exec(["sh", "-c", "exit 137"]);
      expect(killed).toMatchObject({ exitCode: 137, reason: "oom" });
      expect(fake.calls().slice(-1)[0]).toEqual(["inspect", "--format", "{{.State.OOMKilled}}", "mlebench-oom2"]);
    } finally {
      await unreadable.close();
    }
  });

  it("ends only the command at its own time limit, through `timeout` inside the container", async () => {
    const sandbox = await createDockerBackend().create(hostSpec("own"));
    try {
      const r = await sandbox.exec(["sleep", "30"], { timeoutMs: 500 });
      expect(r.reason).toBe("time_limit");
      expect(r.wallMs).toBeLessThan(10_000);
      const exec = fake.calls().find((c) => c[0] === "exec" && c.includes("timeout"))!;
      expect(exec.slice(4, 10)).toEqual(["/home/workspace", "mlebench-own", "timeout", "-k", "5", "0.5"]);
      expect(fake.calls().some((c) => c[0] === "kill")).toBe(false);
      expect((await sandbox.exec(["true"])).reason).toBe("finished");
    } finally {
      await sandbox.close();
    }
  });

  it("at the run's wall limit: SIGTERM to the agent's processes, then the container is killed; later commands do not run", async () => {
    const sandbox = await createDockerBackend().create(hostSpec("wall", { wallMs: 1000 }));
    try {
      const r = await sandbox.exec(["sleep", "30"], { timeoutMs: 60_000 });
      expect(r.reason).toBe("time_limit");
      expect(r.wallMs).toBeLessThan(10_000);
      const calls = fake.calls();
      const term = calls.findIndex((c) => c.at(-1) === "kill -TERM -1");
      expect(calls[term].slice(0, 3)).toEqual(["exec", "--user", `${runUid(calls[0])}:${runUid(calls[0])}`]);
      expect(calls.findIndex((c) => c[0] === "kill")).toBeGreaterThan(term);
      expect(fake.calls().filter((c) => c[0] === "kill")).toEqual([["kill", "mlebench-wall"]]);
      const before = fake.calls().length;
      expect((await sandbox.exec(["true"])).reason).toBe("time_limit");
      expect(fake.calls().length).toBe(before);
    } finally {
      await sandbox.close();
    }
  });

  it("kill() stops a running command and its reason sticks", async () => {
    const sandbox = await createDockerBackend().create(hostSpec("intr"));
    try {
      const running = sandbox.exec(["sleep", "30"]);
      await fake.waitForExec();
      await sandbox.kill("interrupted");
      const r = await running;
      expect(r.reason).toBe("interrupted");
      expect(fake.calls().filter((c) => c[0] === "kill")).toEqual([["kill", "mlebench-intr"]]);
      await sandbox.kill("time_limit"); // a second kill keeps the first reason and issues no new command
      expect((await sandbox.exec(["true"])).reason).toBe("interrupted");
      expect(fake.calls().filter((c) => c[0] === "kill").length).toBe(1);
    } finally {
      await sandbox.close();
    }
  });

  it("samples the cgroup and ends the run when the writable dirs outgrow the disk limit", async () => {
    const spec = { ...hostSpec("disk", { diskBytes: 1000 }), pollMs: 50 };
    const sandbox = await createDockerBackend().create(spec);
    try {
      fs.writeFileSync(path.join(spec.writable.workspace, "big.bin"), Buffer.alloc(10_000));
      const r = await sandbox.exec(["sleep", "30"]);
      expect(r.reason).toBe("disk_limit");
      const peaks = sandbox.peaks();
      expect(peaks.memoryBytes).toBe(13107200);
      expect(peaks.pids).toBe(3);
      expect(peaks.diskBytes).toBeGreaterThanOrEqual(10_000);
    } finally {
      await sandbox.close();
    }
  });

  it("reports a failed docker run with the build command, and removes the half-made container", async () => {
    const failing = makeFake({ runFails: "Unable to find image 'mlebench-agent:latest' locally" });
    setEnv({ MLEBENCH_DOCKER: failing.bin });
    await expect(createDockerBackend().create(hostSpec("norun"))).rejects.toThrow(
      `docker run failed: Unable to find image 'mlebench-agent:latest' locally; build the image with: ${buildImageAdvice("mlebench-agent")}`,
    );
    expect(failing.calls().map((c) => c[0])).toEqual(["run", "rm"]);
  });

  it("refuses an image without node, which the init needs, and removes the container", async () => {
    const nodeless = makeFake({ noNode: true });
    setEnv({ MLEBENCH_DOCKER: nodeless.bin });
    await expect(createDockerBackend().create({ ...hostSpec("nonode"), image: "bare:1" })).rejects.toThrow(
      'the image bare:1 cannot run the harness\'s init (OCI runtime exec failed: exec: "node": executable file not found in $PATH: unknown): ' +
        "it needs Node.js 18 or newer as `node` on PATH (Debian: apt-get install nodejs); build agents' images FROM mlebench-agent, which has it",
    );
    expect(nodeless.calls().map((c) => c[0])).toEqual(["run", "exec", "rm"]);
    expect(nodeless.calls()[0].at(-3)).toBe("bare:1");
  });
});

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { Redis } from "ioredis";
import { CLI, REPO } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** A redis-server of this test file on 127.0.0.1, with append-only persistence in a temp dir. */
export interface TestRedis {
  url: string;
  port: number;
  /** Kill it (SIGKILL, like a lost machine), then start it again on the same port and data. */
  crashAndRestart(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

async function waitReady(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const c = new Redis({ host: "127.0.0.1", port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    c.on("error", () => {});
    try {
      await c.connect();
      // While loading the append-only file Redis answers LOADING; wait for a real answer.
      if ((await c.ping()) === "PONG") return;
    } catch {
      // not up yet
    } finally {
      c.disconnect();
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`redis-server on port ${port} did not start`);
}

/** Start /usr/bin/redis-server; fsync on every write so a SIGKILL loses nothing. `extraBind`: more addresses to listen on. */
export async function startRedis(extraBind: string[] = []): Promise<TestRedis> {
  if (!fs.existsSync("/usr/bin/redis-server")) throw new Error("/usr/bin/redis-server is missing; install it with: sudo bash scripts/setup-system.sh");
  const port = await freePort();
  const dir = tempDir("mlebench-redis-");
  let child: ChildProcess;
  const launch = async () => {
    child = spawn("/usr/bin/redis-server", ["--port", String(port), "--bind", ["127.0.0.1", ...extraBind].join(" "), "--protected-mode", "no", "--dir", dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always"], { stdio: "ignore" });
    const server = child;
    const reap = () => server.kill("SIGKILL");
    process.once("exit", reap);
    server.once("exit", () => process.off("exit", reap));
    await waitReady(port);
  };
  const kill = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async crashAndRestart(downMs) {
      await kill("SIGKILL");
      await new Promise((r) => setTimeout(r, downMs));
      await launch();
    },
    stop: () => kill("SIGTERM"),
  };
}

/** A `mlebench worker` process, its stderr collected. */
export interface TestWorker {
  name: string;
  child: ChildProcess;
  log: () => string;
  /** Resolves when its log matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<number | null>;
}

/** Start `mlebench worker` with the given flags (fast lock expiry, for tests) and environment; `wrap` prefixes the command (e.g. ip netns exec NS). */
export function startWorker(name: string, args: string[], env: Record<string, string> = {}, wrap: string[] = []): TestWorker {
  const { MLEBENCH_DATA_DIR: _d, MLEBENCH_LLM_MODEL: _m, ...base } = process.env;
  const argv = [...wrap, process.execPath, CLI, "worker", "--name", name, "--lock-duration", "2s", "--stalled-interval", "1s", ...args];
  const child = spawn(argv[0], argv.slice(1), {
    cwd: REPO,
    env: { ...base, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  // A test process that dies must not leave workers behind, retrying a Redis that is gone.
  const reap = () => child.kill("SIGKILL");
  process.once("exit", reap);
  let text = "";
  child.stderr!.on("data", (c: Buffer) => (text += c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      process.off("exit", reap);
      resolve(code);
    }),
  );
  return {
    name,
    child,
    log: () => text,
    async waitFor(pattern, timeoutMs = 60_000) {
      const end = Date.now() + timeoutMs;
      while (!pattern.test(text)) {
        if (Date.now() > end) throw new Error(`worker ${name}: no ${pattern} in its log:\n${text}`);
        if (child.exitCode !== null) throw new Error(`worker ${name} exited (${child.exitCode}):\n${text}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** A network namespace joined to this one by a veth pair: the worker side sees the host only at `hostIp`. */
export interface TestNetns {
  name: string;
  hostIp: string;
  remove(): void;
}

/** Whether network namespaces can be made here (root with iproute2). */
export function netnsAvailable(): boolean {
  const name = `mlb-probe-${process.pid}`;
  if (spawnSync("ip", ["netns", "add", name]).status !== 0) return false;
  spawnSync("ip", ["netns", "del", name]);
  return true;
}

/** Make netns number `i` with its own /30 link to the host and loopback up; nothing else is reachable from it. */
export function makeNetns(i: number): TestNetns {
  const tag = `${process.pid % 10000}${i}`;
  const name = `mlb-${tag}`;
  const subnet = `10.${200 + (process.pid % 50)}.${i}`;
  const hostIp = `${subnet}.1`;
  const run = (...args: string[]) => {
    const r = spawnSync("ip", args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`ip ${args.join(" ")}: ${r.stderr}`);
  };
  run("netns", "add", name);
  run("link", "add", `mlbh${tag}`, "type", "veth", "peer", "name", `mlbn${tag}`);
  run("link", "set", `mlbn${tag}`, "netns", name);
  run("addr", "add", `${hostIp}/30`, "dev", `mlbh${tag}`);
  run("link", "set", `mlbh${tag}`, "up");
  run("netns", "exec", name, "ip", "addr", "add", `${subnet}.2/30`, "dev", `mlbn${tag}`);
  run("netns", "exec", name, "ip", "link", "set", `mlbn${tag}`, "up");
  run("netns", "exec", name, "ip", "link", "set", "lo", "up");
  return {
    name,
    hostIp,
    remove() {
      // Deleting the namespace deletes its end of the veth pair, and with it the host's end.
      spawnSync("ip", ["netns", "del", name]);
      spawnSync("ip", ["link", "del", `mlbh${tag}`]);
    },
  };
}

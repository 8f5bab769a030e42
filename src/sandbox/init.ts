// Sandbox init. Two ways to run it:
//   node /run/mlebench/init.mjs [--cwd DIR] [--forward PORT=SOCKET]... [--env-file FILE] [--shared-signals] -- cmd arg...
//     runs one command: loopback ports the agent expects (validation server on 5000, proxy on
//     3128) are forwarded to the harness's Unix sockets, then the command runs and its exit status
//     becomes ours. It enters the command's folder itself, already as the agent's uid: bwrap, as
//     root without capabilities, could not enter a folder private to that uid. SIGTERM, SIGINT and
//     SIGHUP are passed on to the command, unless --shared-signals says every such signal reaches
//     the command itself too (Docker's stop signals every process of the agent's uid; coreutils
//     `timeout` signals its whole process group): passed on as well, the command would get it twice,
//     and a shell's trap would run twice. Either way init outlives them to report the command's status.
//   node /run/mlebench/init.mjs --serve [--agent-uid UID] [--sweep] [--forward PORT=SOCKET]...
//     stays up for a whole run and starts each command the harness asks for (see serve() below),
//     so that a command costs one process start instead of a namespace, a stage and a Node boot.
// This file is bind-mounted alone, so it imports only node: builtins.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";

const USAGE =
  "usage: node init.mjs [--cwd DIR] [--forward PORT=SOCKETPATH]... [--env-file FILE] [--shared-signals] -- cmd arg...\n" +
  "   or: node init.mjs --serve [--agent-uid UID] [--sweep] [--forward PORT=SOCKETPATH]...";

function die(message: string, code: number): never {
  process.stderr.write(`init: ${message}\n`);
  process.exit(code);
}

/** Parse KEY=VALUE lines; a value in double quotes is a JSON string, so it may hold anything. */
function readEnvFile(file: string): Record<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    die(`cannot read env file ${file}: ${(e as Error).message}`, 2);
  }
  const env: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith("#")) return;
    const eq = line.indexOf("=");
    const key = eq > 0 ? line.slice(0, eq).trim() : "";
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) die(`${file}, line ${i + 1}: expected KEY=VALUE`, 2);
    let value = line.slice(eq + 1);
    if (value.startsWith('"')) {
      try {
        value = String(JSON.parse(value));
      } catch {
        die(`${file}, line ${i + 1}: a quoted value must be a JSON string`, 2);
      }
    }
    env[key] = value;
  });
  return env;
}

const forwards: { port: number; socket: string }[] = [];
let envFile: string | null = null;
let serving = false;
let agentUid: number | null = null;
let sweeping = false;
let sharedSignals = false;
const argv = process.argv.slice(2);
let i = 0;
while (i < argv.length) {
  const arg = argv[i];
  if (arg === "--") {
    i++;
    break;
  }
  if (!arg.startsWith("--")) break;
  if (arg === "--serve" || arg === "--sweep" || arg === "--shared-signals") {
    if (arg === "--serve") serving = true;
    else if (arg === "--sweep") sweeping = true;
    else sharedSignals = true;
    i++;
    continue;
  }
  const value = argv[i + 1];
  if (value === undefined) die(`${arg} needs a value\n${USAGE}`, 2);
  if (arg === "--forward") {
    const m = /^(\d+)=(.+)$/.exec(value);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 65535) die(`bad --forward "${value}"; expected PORT=SOCKETPATH`, 2);
    forwards.push({ port: Number(m[1]), socket: m[2] });
  } else if (arg === "--env-file") {
    envFile = value;
  } else if (arg === "--agent-uid") {
    if (!/^[1-9]\d{0,9}$/.test(value)) die(`bad --agent-uid "${value}"; expected a uid above 0`, 2);
    agentUid = Number(value);
  } else if (arg === "--cwd") {
    try {
      process.chdir(value);
    } catch (e) {
      die(`cannot enter ${value}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 126);
    }
  } else {
    die(`unknown option ${arg}\n${USAGE}`, 2);
  }
  i += 2;
}
const command = argv.slice(i);
if (serving && command.length > 0) die(`--serve takes no command\n${USAGE}`, 2);
if (!serving && command.length === 0) die(`no command given\n${USAGE}`, 2);
if (!serving && (agentUid !== null || sweeping)) die(`--agent-uid and --sweep need --serve\n${USAGE}`, 2);
if (serving && sharedSignals) die(`--shared-signals is for one command, not --serve\n${USAGE}`, 2);
// kill(-1) as root would reach every process in sight.
if (sweeping && agentUid === null && process.getuid?.() === 0) die("--sweep as root needs --agent-uid", 2);

const open = new Set<net.Socket>();
function track(s: net.Socket): void {
  open.add(s);
  s.on("close", () => open.delete(s));
}

/** Listen on 127.0.0.1:port and splice each connection to the Unix socket; null if the port is taken. */
function forward(port: number, socket: string): Promise<net.Server | null> {
  // Half-open sockets let a client finish sending (shutdown) and still read the reply.
  const server = net.createServer({ allowHalfOpen: true }, (conn) => {
    const up = net.connect({ path: socket, allowHalfOpen: true });
    track(conn);
    track(up);
    conn.pipe(up);
    up.pipe(conn);
    conn.on("error", () => up.destroy());
    up.on("error", () => conn.destroy());
    conn.on("close", () => up.destroy());
    up.on("close", () => conn.destroy());
  });
  return new Promise((resolve) => {
    server.once("error", (e: NodeJS.ErrnoException) => {
      const why = e.code ?? e.message;
      process.stderr.write(`init: warning: cannot listen on 127.0.0.1:${port} (${why}); not forwarding to ${socket}\n`);
      resolve(null);
    });
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

// Listen before any command starts, so its first connection cannot race the forwarders.
const servers = (await Promise.all(forwards.map((f) => forward(f.port, f.socket)))).filter(
  (s): s is net.Server => s !== null,
);

function finish(code: number): never {
  for (const s of servers) s.close();
  for (const s of open) s.destroy();
  process.exit(code);
}

/**
 * Descriptors this process got without close-on-exec beyond 0-2 (the harness puts /dev/null over
 * any it inherited itself) are closed, so commands start with stdin, stdout and stderr alone.
 */
function closeStrayFds(): void {
  let names: string[] = [];
  try {
    names = fs.readdirSync("/proc/self/fd");
  } catch {
    return;
  }
  for (const name of names) {
    const fd = Number(name);
    if (fd <= 2) continue;
    try {
      const flags = /^flags:\s*([0-7]+)$/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
      if (flags && (parseInt(flags[1], 8) & 0o2000000) === 0) fs.closeSync(fd);
    } catch {
      // the listing's own descriptor, already closed
    }
  }
}

/** The message for a command that could not be started. */
function startFailure(name: string, e: NodeJS.ErrnoException): string {
  const why = e.code === "ENOENT" ? "command not found" : e.code === "EACCES" ? "permission denied" : e.message;
  return `init: cannot start "${name}": ${why}\n`;
}

/** A dead command's status as a shell reports it: its exit code, or 128 plus the signal's number. */
function statusOf(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0);
}

closeStrayFds();
if (serving) serve();
else runOne();

function runOne(): void {
  const env = envFile ? { ...process.env, ...readEnvFile(envFile) } : process.env;
  const child = spawn(command[0], command.slice(1), { stdio: "inherit", env });
  child.on("error", (e: NodeJS.ErrnoException) => {
    process.stderr.write(startFailure(command[0], e));
    finish(127);
  });
  for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(sig, () => {
      if (!sharedSignals && child.pid !== undefined && child.exitCode === null) child.kill(sig);
    });
  }
  child.on("exit", (code, signal) => finish(statusOf(code, signal)));
}

/*
 * The exec server. Requests come on stdin, one JSON object a line:
 *   {"run": ID, "argv": [...], "cwd": DIR, "env": {...}, "input": TEXT?}   start a command
 *   {"signal": ID, "name": "SIGTERM" | "SIGKILL"}                         signal its processes
 * Replies go to stdout as frames: a type byte, the command's ID and the payload's length (both
 * 32-bit big-endian), then the payload: 1 stdout bytes, 2 stderr bytes, 3 the exit status as
 * decimal text, 4 ready (ID 0, sent once the forwarders listen). End of stdin stops everything.
 *
 * Each command leads a session of its own; when it exits, its process group is killed, and with
 * --sweep (only for a server alone in a pid namespace of its own) every process of the agent's uid
 * is killed once no command is left, so nothing of one command outlives it.
 * With --agent-uid (the harness is root) the server stays uid 0 with only CAP_SETUID and
 * CAP_SETGID: commands run as the agent's uid, which cannot signal, trace or read the server, and
 * the server acts as that uid (its effective uid, briefly) to enter folders and send signals, so
 * it can do nothing there the agent could not. Without it, the server is the agent's uid already.
 */
function serve(): void {
  const FRAME_STDOUT = 1;
  const FRAME_STDERR = 2;
  const FRAME_EXIT = 3;
  const FRAME_READY = 4;
  /** A request line longer than this is refused (a command's input travels in one). */
  const MAX_LINE = 256 << 20;
  /** How long the pipes of an exited command may stay open (held by processes it left behind). */
  const LATE_PIPES_MS = 2000;

  /** Commands not yet reported ended, with their process once spawned. */
  const jobs = new Map<number, ChildProcess | null>();

  const send = (type: number, id: number, payload: Buffer | string): void => {
    const body = typeof payload === "string" ? Buffer.from(payload) : payload;
    const head = Buffer.alloc(9);
    head[0] = type;
    head.writeUInt32BE(id, 1);
    head.writeUInt32BE(body.length, 5);
    process.stdout.write(Buffer.concat([head, body]));
  };
  // The harness is gone: nothing is left to report to.
  process.stdout.on("error", () => stopAll());

  /** Run fn with the agent's effective uid and gid, so file and signal permissions are the agent's. */
  const asAgent = <T>(fn: () => T): T => {
    if (agentUid === null) return fn();
    process.setegid!(agentUid);
    process.seteuid!(agentUid);
    try {
      return fn();
    } finally {
      process.seteuid!(0);
      process.setegid!(0);
    }
  };
  const signalPids = (pids: number[], sig: NodeJS.Signals) =>
    asAgent(() => {
      for (const p of pids) {
        try {
          process.kill(p, sig);
        } catch {
          // gone, or not the agent's
        }
      }
    });
  /** Every process of the agent's uid in this pid namespace but the server (kill(-1) spares pid 1 and the caller). */
  const sweep = () => {
    if (sweeping) signalPids([-1], "SIGKILL");
  };

  /** Pids below `root` in this pid namespace. */
  const below = (root: number): number[] => {
    const children = new Map<number, number[]>();
    let names: string[] = [];
    try {
      names = fs.readdirSync("/proc");
    } catch {
      return [];
    }
    for (const n of names) {
      if (!/^\d+$/.test(n)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${n}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        children.set(ppid, [...(children.get(ppid) ?? []), Number(n)]);
      } catch {
        // gone
      }
    }
    const out: number[] = [];
    const stack = [root];
    while (stack.length > 0) for (const c of children.get(stack.pop()!) ?? []) out.push(c), stack.push(c);
    return out;
  };

  const end = (id: number, status: number) => {
    if (!jobs.delete(id)) return;
    if (jobs.size === 0) sweep();
    send(FRAME_EXIT, id, String(status));
  };

  /** Enter `dir` as the agent would; null on success, else why not. */
  const enter = (dir: string): string | null => {
    try {
      asAgent(() => process.chdir(dir));
      return null;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    }
  };

  const start = (id: number, cmd: string[], cwd: string, env: Record<string, string>, input: string | undefined) => {
    jobs.set(id, null);
    const why = enter(cwd);
    if (why !== null) {
      send(FRAME_STDERR, id, `init: cannot enter ${cwd}: ${why}\n`);
      return end(id, 126);
    }
    let child: ChildProcess;
    try {
      // The child inherits the folder just entered: as root it could not enter one private to the agent.
      child = spawn(cmd[0], cmd.slice(1), {
        env,
        detached: true,
        stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
        ...(agentUid === null ? {} : { uid: agentUid, gid: agentUid }),
      });
    } catch (e) {
      send(FRAME_STDERR, id, startFailure(cmd[0], e as NodeJS.ErrnoException));
      return end(id, 127);
    } finally {
      process.chdir("/");
    }
    jobs.set(id, child);
    child.on("error", (e: NodeJS.ErrnoException) => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) return; // a signal that could not be sent
      send(FRAME_STDERR, id, startFailure(cmd[0], e));
      end(id, 127);
    });
    child.stdout!.on("data", (c: Buffer) => send(FRAME_STDOUT, id, c));
    child.stderr!.on("data", (c: Buffer) => send(FRAME_STDERR, id, c));
    if (input !== undefined) {
      child.stdin!.on("error", () => {}); // a command that never reads its input is not an error
      child.stdin!.end(input);
    }
    child.on("exit", (code, signal) => {
      // What the command left in its group (background jobs) ends with it; when no other command
      // runs, so does everything else of the agent's, daemons holding its pipes included.
      if (child.pid !== undefined) signalPids([-child.pid], "SIGKILL");
      if (jobs.size === 1) sweep();
      const status = statusOf(code, signal);
      const late = setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        end(id, status);
      }, LATE_PIPES_MS);
      child.on("close", () => {
        clearTimeout(late);
        end(id, status);
      });
    });
  };

  const signal = (id: number, name: string) => {
    const pid = jobs.get(id)?.pid;
    if (pid === undefined || (name !== "SIGTERM" && name !== "SIGKILL")) return;
    signalPids([-pid, pid, ...below(pid)], name);
  };

  function stopAll(): never {
    for (const child of jobs.values()) if (child?.pid !== undefined) signalPids([-child.pid], "SIGKILL");
    sweep();
    finish(0);
  }

  const handle = (line: string) => {
    let req: { run?: unknown; argv?: unknown; cwd?: unknown; env?: unknown; input?: unknown; signal?: unknown; name?: unknown };
    try {
      req = JSON.parse(line);
    } catch {
      die(`bad request (not JSON): ${line.slice(0, 80)}`, 2);
    }
    const isId = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0 && v <= 0xffffffff;
    if (isId(req.run)) {
      const { argv: cmd, cwd, env, input } = req;
      const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");
      const envOk = typeof env === "object" && env !== null && Object.values(env).every((x) => typeof x === "string");
      if (!strings(cmd) || cmd.length === 0 || typeof cwd !== "string" || !envOk || (input !== undefined && typeof input !== "string") || jobs.has(req.run)) {
        die(`bad run request: ${line.slice(0, 200)}`, 2);
      }
      start(req.run, cmd, cwd, env as Record<string, string>, input as string | undefined);
    } else if (isId(req.signal) && typeof req.name === "string") {
      signal(req.signal, req.name);
    } else {
      die(`bad request: ${line.slice(0, 200)}`, 2);
    }
  };

  if (agentUid !== null) process.setgroups!([]);
  process.chdir("/");
  let pending = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    pending += chunk;
    let nl = pending.indexOf("\n");
    while (nl >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.trim() !== "") handle(line);
      nl = pending.indexOf("\n");
    }
    if (pending.length > MAX_LINE) die(`a request line is longer than ${MAX_LINE} bytes`, 2);
  });
  process.stdin.on("end", () => stopAll());
  for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(sig, () => stopAll());
  send(FRAME_READY, 0, "");
}

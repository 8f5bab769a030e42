// Sandbox init, run as `node /run/mlebench/init.mjs [--cwd DIR] [--forward PORT=SOCKET]... [--env-file FILE] -- cmd arg...`.
// The sandbox has no network, so loopback ports the agent expects (validation server on 5000,
// proxy on 3128) are forwarded to the harness's Unix sockets; then the agent command runs and
// its exit status becomes ours. It enters the command's folder itself, already as the agent's
// uid: bwrap, as root without capabilities, could not enter a folder private to that uid. This file is bind-mounted alone, so it imports only node: builtins.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";

const USAGE = "usage: node init.mjs [--cwd DIR] [--forward PORT=SOCKETPATH]... [--env-file FILE] -- cmd arg...";

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
const argv = process.argv.slice(2);
let i = 0;
while (i < argv.length) {
  const arg = argv[i];
  if (arg === "--") {
    i++;
    break;
  }
  if (!arg.startsWith("--")) break;
  const value = argv[i + 1];
  if (value === undefined) die(`${arg} needs a value\n${USAGE}`, 2);
  if (arg === "--forward") {
    const m = /^(\d+)=(.+)$/.exec(value);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 65535) die(`bad --forward "${value}"; expected PORT=SOCKETPATH`, 2);
    forwards.push({ port: Number(m[1]), socket: m[2] });
  } else if (arg === "--env-file") {
    envFile = value;
  } else if (arg === "--cwd") {
    try {
      process.chdir(value);
    } catch (e) {
      die(`init: cannot enter ${value}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 126);
    }
  } else {
    die(`unknown option ${arg}\n${USAGE}`, 2);
  }
  i += 2;
}
const command = argv.slice(i);
if (command.length === 0) die(`no command given\n${USAGE}`, 2);
const env = envFile ? { ...process.env, ...readEnvFile(envFile) } : process.env;

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

// Listen before the command starts, so its first connection cannot race the forwarders.
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
 * any it inherited itself) are closed, so the command starts with stdin, stdout and stderr alone.
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

closeStrayFds();
const child = spawn(command[0], command.slice(1), { stdio: "inherit", env });
child.on("error", (e: NodeJS.ErrnoException) => {
  const why = e.code === "ENOENT" ? "command not found" : e.code === "EACCES" ? "permission denied" : e.message;
  process.stderr.write(`init: cannot start "${command[0]}": ${why}\n`);
  finish(127);
});
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  process.on(sig, () => {
    if (child.pid !== undefined && child.exitCode === null) child.kill(sig);
  });
}
child.on("exit", (code, signal) => {
  finish(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0));
});

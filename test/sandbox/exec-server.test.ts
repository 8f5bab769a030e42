// The exec server (init.mjs --serve) driven by its harness-side client, outside any sandbox: the
// protocol, output, statuses, signals, timeouts and a server that dies or lies. The same pair under
// bwrap, as root and unprivileged, is in bwrap-served.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ExecServer, FrameReader, type ServedOptions } from "../../src/sandbox/exec-server.js";
import { OutputBudget } from "../../src/sandbox/process.js";

const SOURCE = decodeURIComponent(new URL("../../src/sandbox/init.ts", import.meta.url).pathname);

let dir: string;
let init: string;
const servers: ExecServer[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-serve-"));
  const out = ts.transpileModule(fs.readFileSync(SOURCE, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  init = path.join(dir, "init.mjs");
  fs.writeFileSync(init, out.outputText);
});

afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A server started as `node init.mjs --serve EXTRA...` (never --sweep here: no pid namespace of its own). */
function server(extra: string[] = [], argv?: string[]): ExecServer {
  const s = new ExecServer(() => ({ argv: argv ?? [process.execPath, init, "--serve", ...extra], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } }));
  servers.push(s);
  return s;
}

const ENV = { PATH: "/usr/bin:/bin" };
const noTimeout: ServedOptions = { onTimeout: () => {} };
const sh = (script: string, cwd = "/") => ({ argv: ["/bin/sh", "-c", script], cwd, env: ENV });

function frame(type: number, id: number, payload: string): Buffer {
  const head = Buffer.alloc(9);
  head[0] = type;
  head.writeUInt32BE(id, 1);
  head.writeUInt32BE(Buffer.byteLength(payload), 5);
  return Buffer.concat([head, Buffer.from(payload)]);
}

/** Whether a process runs (a zombie, dead but not yet reaped by whoever adopted it, does not). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

describe("FrameReader", () => {
  it("joins frames split at any byte and keeps their order", () => {
    const bytes = Buffer.concat([frame(1, 7, "out"), frame(2, 7, "err"), frame(3, 7, "0"), frame(4, 0, "")]);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const r = new FrameReader();
      const got = [...r.push(bytes.subarray(0, cut)), ...r.push(bytes.subarray(cut))];
      expect(got.map((f) => [f.type, f.id, f.payload.toString()])).toEqual([
        [1, 7, "out"],
        [2, 7, "err"],
        [3, 7, "0"],
        [4, 0, ""],
      ]);
    }
  });

  it("refuses an unknown type and a frame over 1 MiB", () => {
    expect(() => new FrameReader().push(frame(9, 1, "x"))).toThrow("unknown frame type 9");
    const huge = Buffer.alloc(9);
    huge[0] = 1;
    huge.writeUInt32BE((1 << 20) + 1, 5);
    expect(() => new FrameReader().push(huge)).toThrow(`a frame of ${(1 << 20) + 1} bytes (at most ${1 << 20})`);
  });
});

describe("exec server", () => {
  it("runs commands one after another with their output, environment, folder, input and status", async () => {
    const s = server();
    const a = await s.run({ argv: ["/bin/sh", "-c", 'echo "$MARK $(pwd)"; echo warn >&2'], cwd: dir, env: { ...ENV, MARK: "m1" } }, noTimeout);
    expect(a).toMatchObject({ exitCode: 0, signal: null, timedOut: false, stdout: `m1 ${dir}\n`, stderr: "warn\n", truncated: false });
    const pid = s.pid;
    expect(pid).toBeGreaterThan(0);
    expect(await s.run(sh("exit 3"), noTimeout)).toMatchObject({ exitCode: 3, signal: null });
    expect(await s.run({ argv: ["/bin/cat"], cwd: "/", env: ENV, input: "line one\nline two" }, noTimeout)).toMatchObject({ exitCode: 0, stdout: "line one\nline two" });
    expect(await s.run(sh("kill -TERM $$"), noTimeout)).toMatchObject({ exitCode: 143, signal: null });
    // One server for all of them.
    expect(s.pid).toBe(pid);
  });

  it("says why a command cannot start (127) or its folder cannot be entered (126)", async () => {
    const s = server();
    const missing = await s.run({ argv: [path.join(dir, "no-such-command")], cwd: "/", env: ENV }, noTimeout);
    expect(missing).toMatchObject({ exitCode: 127, stdout: "" });
    expect(missing.stderr).toBe(`init: cannot start "${path.join(dir, "no-such-command")}": command not found\n`);
    const badCwd = await s.run({ argv: ["/bin/true"], cwd: path.join(dir, "nowhere"), env: ENV }, noTimeout);
    expect(badCwd).toMatchObject({ exitCode: 126, stderr: `init: cannot enter ${path.join(dir, "nowhere")}: ENOENT\n` });
    // The server carries on.
    expect(await s.run(sh("echo on"), noTimeout)).toMatchObject({ exitCode: 0, stdout: "on\n" });
  });

  it("runs commands side by side, each with its own output", async () => {
    const s = server();
    const runs = await Promise.all([0, 1, 2, 3].map((n) => s.run(sh(`sleep 0.${3 - n}; echo run${n}; exit ${n}`), noTimeout)));
    expect(runs.map((r) => [r.exitCode, r.stdout])).toEqual([
      [0, "run0\n"],
      [1, "run1\n"],
      [2, "run2\n"],
      [3, "run3\n"],
    ]);
    expect(s.inFlight).toBe(0);
  });

  it("kills what a command leaves in its process group when it exits", async () => {
    const s = server();
    const r = await s.run(sh("sleep 300 & echo $!"), noTimeout);
    const pid = Number(r.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    await new Promise((res) => setTimeout(res, 100));
    expect(alive(pid)).toBe(false);
  });

  it("calls onTimeout with the command's id, and a signal sent to it ends the command's processes", async () => {
    const s = server();
    let seen = 0;
    const started = Date.now();
    const r = await s.run(sh("sleep 300 & sleep 300; echo never"), {
      timeoutMs: 200,
      onTimeout: (id) => {
        seen = id;
        s.signal(id, "SIGTERM");
      },
    });
    expect(seen).toBeGreaterThan(0);
    expect(r).toMatchObject({ exitCode: 143, timedOut: true, stdout: "" });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("keeps output within the limit, and the log within the run's budget", async () => {
    const s = server();
    const log = path.join(dir, "agent.log");
    fs.writeFileSync(log, "");
    const budget = new OutputBudget(1000);
    const chunks: string[] = [];
    const r = await s.run(sh("head -c 300000 /dev/zero | tr '\\0' x"), { ...noTimeout, outputLimit: 100, logFile: log, budget, onOutput: (c) => chunks.push(c.toString()) });
    expect(r.stdout).toBe("x".repeat(100));
    expect(r.truncated).toBe(true);
    expect(chunks.join("")).toBe("x".repeat(300000));
    expect(fs.readFileSync(log, "utf8")).toBe("x".repeat(1000));
    expect(budget.dropped).toBe(299000);
  });

  it("ends running commands with SIGKILL when the server is destroyed, and starts a new one for the next", async () => {
    const s = server();
    const first = s.pid;
    const pending = s.run(sh("sleep 300"), noTimeout);
    await new Promise((res) => setTimeout(res, 200));
    const old = s.pid!;
    expect(first === null || first === old).toBe(true);
    s.destroy();
    expect(await pending).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(s.pid).toBeNull();
    expect(await s.run(sh("echo again"), noTimeout)).toMatchObject({ exitCode: 0, stdout: "again\n" });
    expect(s.pid).not.toBe(old);
  });

  it("explains a server that dies while a command runs", async () => {
    const s = server();
    const pending = s.run(sh("sleep 300"), noTimeout);
    await new Promise((res) => setTimeout(res, 200));
    process.kill(s.pid!, "SIGKILL");
    const r = await pending;
    expect(r).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(r.stderr).toBe("mlebench: the sandbox ended (SIGKILL) while this command ran\n");
  });

  it("reports a server that never gets ready, with what it printed and its status", async () => {
    const s = server([], [process.execPath, "-e", "process.stderr.write('bwrap: no permission\\n'); process.exit(1)"]);
    const r = await s.run(sh("true"), noTimeout);
    expect(r).toMatchObject({ exitCode: 1, signal: null, stdout: "", stderr: "bwrap: no permission\n" });
  });

  it("stops a server whose replies are not frames, and says so", async () => {
    // A stand-in that is ready, then writes garbage where a reply should be.
    const liar = [
      "const h=Buffer.alloc(9);h[0]=4;process.stdout.write(h);",
      "process.stdin.once('data',()=>process.stdout.write(Buffer.from([77,0,0,0,1,0,0,0,0])));",
      "setInterval(()=>{},1000);",
    ].join("");
    const s = server([], [process.execPath, "-e", liar]);
    const r = await s.run(sh("true"), noTimeout);
    expect(r).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(r.stderr).toBe("exec server: corrupt reply (unknown frame type 77); the sandbox was stopped\n");
  });

  it("refuses --sweep as root without --agent-uid, and options that need --serve", async () => {
    const { spawnSync } = await import("node:child_process");
    const run = (args: string[]) => spawnSync(process.execPath, [init, ...args], { encoding: "utf8" });
    const cmd = run(["--agent-uid", "5", "--", "true"]);
    expect(cmd.status).toBe(2);
    expect(cmd.stderr).toContain("--agent-uid and --sweep need --serve");
    expect(run(["--serve", "--", "true"]).stderr).toContain("--serve takes no command");
    expect(run(["--serve", "--agent-uid", "0"]).stderr).toContain('bad --agent-uid "0"');
    if (process.getuid?.() === 0) {
      const sweep = run(["--serve", "--sweep"]);
      expect(sweep.status).toBe(2);
      expect(sweep.stderr).toBe("init: --sweep as root needs --agent-uid\n");
    }
  });
});

// As root the server stays uid 0 and runs commands as the agent's uid, entering folders as that uid.
describe.skipIf(process.getuid?.() !== 0)("exec server with --agent-uid (root)", () => {
  const UID = 61_234;
  beforeAll(() => fs.chmodSync(dir, 0o755));

  it("runs commands as the agent's uid and gid, with no groups, in folders only the agent may enter", async () => {
    const own = path.join(dir, "own");
    fs.mkdirSync(own, { mode: 0o700 });
    fs.chownSync(own, UID, UID);
    const s = server(["--agent-uid", String(UID)]);
    const r = await s.run(sh("id -u; id -g; id -G; pwd", own), noTimeout);
    expect(r).toMatchObject({ exitCode: 0, stdout: `${UID}\n${UID}\n${UID}\n${own}\n` });
  });

  it("refuses a folder the agent may not enter although root could", async () => {
    const closed = path.join(dir, "closed");
    fs.mkdirSync(closed, { mode: 0o700 });
    const s = server(["--agent-uid", String(UID)]);
    const r = await s.run(sh("pwd", closed), noTimeout);
    expect(r).toMatchObject({ exitCode: 126, stderr: `init: cannot enter ${closed}: EACCES\n` });
  });
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SOURCE = decodeURIComponent(new URL("../../src/sandbox/init.ts", import.meta.url).pathname);
const BUILT = decodeURIComponent(new URL("../../dist/sandbox/init.js", import.meta.url).pathname);

let dir: string;
let init: string;
let sock: string;
let echo: net.Server;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run init.mjs; `onStdout` may act on the child (e.g. signal init once the child is ready). */
function runInit(args: string[], onStdout?: (text: string, pid: number) => void, script = init): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    p.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
      onStdout?.(stdout, p.pid!);
    });
    p.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const timer = setTimeout(() => p.kill("SIGKILL"), 20_000);
    p.on("error", reject);
    p.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A child that connects to the forwarded port, half-closes, and prints the whole reply. */
function client(port: number): string {
  return (
    `const s=require("net").connect(${port},"127.0.0.1",()=>s.end("hello"));` +
    `let d="";s.on("data",c=>d+=c);s.on("error",e=>{console.log("error:"+e.message);process.exit(9)});` +
    `s.on("close",()=>console.log("reply:"+d))`
  );
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-init-"));
  // Built alone from its source, the way the sandbox mounts it: any non-builtin import would fail.
  const out = ts.transpileModule(fs.readFileSync(SOURCE, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  init = path.join(dir, "init.mjs");
  fs.writeFileSync(init, out.outputText);
  sock = path.join(dir, "echo.sock");
  echo = net.createServer({ allowHalfOpen: true }, (s) => {
    const chunks: Buffer[] = [];
    s.on("data", (c: Buffer) => chunks.push(c));
    s.on("end", () => s.end("echo:" + Buffer.concat(chunks).toString()));
  });
  await new Promise<void>((r) => echo.listen(sock, () => r()));
});

afterAll(() => {
  echo?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("sandbox init", () => {
  it("imports only node: builtins", () => {
    const src = fs.readFileSync(SOURCE, "utf8");
    const specifiers = [...src.matchAll(/^import\s[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]);
    expect(specifiers.length).toBeGreaterThan(0);
    for (const s of specifiers) expect(s.startsWith("node:")).toBe(true);
  });

  it("forwards a loopback port to a Unix socket and exits with the command's status", async () => {
    const port = await freePort();
    const r = await runInit(["--forward", `${port}=${sock}`, "--", process.execPath, "-e", client(port)]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("reply:echo:hello\n");
    expect(r.code).toBe(0);
  });

  it("propagates a non-zero exit code", async () => {
    const r = await runInit(["--", process.execPath, "-e", "process.exit(3)"]);
    expect(r.code).toBe(3);
  });

  it("exits 128+15 when the command dies of SIGTERM", async () => {
    const r = await runInit(["--", process.execPath, "-e", "process.kill(process.pid, 'SIGTERM')"]);
    expect(r.code).toBe(143);
  });

  it("forwards SIGTERM to the command", async () => {
    let sent = false;
    const r = await runInit(
      ["--", process.execPath, "-e", "console.log('ready'); setInterval(() => {}, 1000)"],
      (text, pid) => {
        if (!sent && text.includes("ready")) {
          sent = true;
          process.kill(pid, "SIGTERM");
        }
      },
    );
    expect(sent).toBe(true);
    expect(r.code).toBe(143);
  });

  // A command that counts the SIGTERMs it gets and prints the count a moment after the first. Without
  // --shared-signals a signal to the group reaches it directly and again through init, so it mostly counts 2.
  const COUNT = "let n = 0; process.on('SIGTERM', () => { if (n++ === 0) setTimeout(() => { console.log('SIGTERMs: ' + n); process.exit(0); }, 500); }); console.log('ready'); setInterval(() => {}, 1000);";

  /** Run init in a process group of its own and, once the command is ready, SIGTERM the whole group. */
  function signalGroup(args: string[]): Promise<Run> {
    return new Promise((resolve, reject) => {
      const p = spawn(process.execPath, [init, ...args, "--", process.execPath, "-e", COUNT], { stdio: ["ignore", "pipe", "pipe"], detached: true });
      let stdout = "";
      let sent = false;
      p.stdout.setEncoding("utf8").on("data", (c: string) => {
        stdout += c;
        if (!sent && stdout.includes("ready")) {
          sent = true;
          process.kill(-p.pid!, "SIGTERM");
        }
      });
      const timer = setTimeout(() => process.kill(-p.pid!, "SIGKILL"), 20_000);
      p.on("error", reject);
      p.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr: "" });
      });
    });
  }

  it("with --shared-signals passes nothing on: a signal to its whole group reaches the command once", async () => {
    const r = await signalGroup(["--shared-signals"]);
    expect(r.stdout).toBe("ready\nSIGTERMs: 1\n");
    expect(r.code).toBe(0);
  });

  it("with --shared-signals a SIGTERM to init alone is not passed on: init outlives it and reports the command's own end", async () => {
    let sent = false;
    const r = await runInit(["--shared-signals", "--", process.execPath, "-e", "console.log('ready'); setTimeout(() => console.log('done'), 500)"], (text, pid) => {
      if (!sent && text.includes("ready")) {
        sent = true;
        process.kill(pid, "SIGTERM");
      }
    });
    expect(sent).toBe(true);
    expect([r.stdout, r.code]).toEqual(["ready\ndone\n", 0]);
  });

  it("refuses --shared-signals with --serve", async () => {
    const r = await runInit(["--serve", "--shared-signals"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("init: --shared-signals is for one command, not --serve");
  });

  it("exits 127 with a clear message when the command cannot be started", async () => {
    const r = await runInit(["--", path.join(dir, "no-such-command")]);
    expect(r.code).toBe(127);
    expect(r.stderr).toContain("no-such-command");
    expect(r.stderr).toContain("command not found");
  });

  it("warns once and carries on when a port is already in use", async () => {
    const busy = net.createServer();
    const port = await new Promise<number>((r) => busy.listen(0, "127.0.0.1", () => r((busy.address() as net.AddressInfo).port)));
    try {
      const r = await runInit(["--forward", `${port}=${sock}`, "--", process.execPath, "-e", "console.log('ran')"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("ran\n");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(String(port));
    } finally {
      busy.close();
    }
  });

  it("adds variables from --env-file to the command's environment", async () => {
    const envFile = path.join(dir, "agent.env");
    fs.writeFileSync(envFile, `# comment\nPLAIN=a=b c\nQUOTED=${JSON.stringify("line1\nline2")}\n`);
    const r = await runInit([
      "--env-file",
      envFile,
      "--",
      process.execPath,
      "-e",
      "console.log(JSON.stringify([process.env.PLAIN, process.env.QUOTED, typeof process.env.PATH]))",
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(["a=b c", "line1\nline2", "string"]);
  });

  // The test above runs the source transpiled on the spot; this one checks the build output
  // (`npm test` builds first), copied alone as the sandbox mounts it.
  it.skipIf(!fs.existsSync(BUILT))("works as the built dist/sandbox/init.js, copied alone", async () => {
    const alone = path.join(fs.mkdtempSync(path.join(dir, "built-")), "init.mjs");
    fs.copyFileSync(BUILT, alone);
    const port = await freePort();
    const ok = await runInit(["--forward", `${port}=${sock}`, "--", process.execPath, "-e", client(port)], undefined, alone);
    expect(ok).toEqual({ code: 0, stdout: "reply:echo:hello\n", stderr: "" });
    const three = await runInit(["--", process.execPath, "-e", "process.exit(3)"], undefined, alone);
    expect(three.code).toBe(3);
  });

  it("rejects a malformed --forward", async () => {
    const r = await runInit(["--forward", "nope", "--", "true"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("PORT=SOCKETPATH");
  });
});

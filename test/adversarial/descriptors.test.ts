// Descriptors the harness inherits from whoever started it (a shell's `exec 57<file`, a CI runner)
// must not reach the agent: an open root-only file would be readable inside, and a directory
// descriptor would let the agent walk `..` up to the host's root.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, REPO } from "../helpers/cli.js";
import { tempDir } from "../helpers/data-dir.js";
import { agentLog, titanicDataDir } from "../helpers/runs.js";
import { inheritableFds } from "../../src/sandbox/fds.js";

let dataDir = "";
beforeAll(async () => {
  dataDir = await titanicDataDir();
});

/** `mlebench run` started with `fds` open (without close-on-exec) at the given descriptor numbers. */
function runWithFds(args: string[], fds: Record<number, number>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const top = Math.max(...Object.keys(fds).map(Number));
  const stdio: (number | "ignore" | "pipe")[] = ["ignore", "pipe", "pipe"];
  for (let i = 3; i <= top; i++) stdio.push(fds[i] ?? "ignore");
  const { MLEBENCH_DATA_DIR: _d, ...env } = process.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO, env, stdio });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("inherited file descriptors (bwrap)", () => {
  it("finds descriptors open without close-on-exec, and none of Node's own", () => {
    const fd = fs.openSync("/dev/null", "r"); // Node opens with O_CLOEXEC
    expect(inheritableFds()).not.toContain(fd);
    fs.closeSync(fd);
  });

  it("an open root-only file and a directory descriptor of the harness never reach the agent", async () => {
    const secretDir = tempDir("mlebench-fd-secret-");
    fs.chmodSync(secretDir, 0o700);
    const secretFile = path.join(secretDir, "secret.txt");
    fs.writeFileSync(secretFile, "inherited-secret-4711\n", { mode: 0o600 });
    const fileFd = fs.openSync(secretFile, "r");
    const dirFd = fs.openSync("/", "r");
    const cmd = [
      "cp /home/data/sample_submission.csv /home/submission/submission.csv",
      // Every descriptor the agent's shell holds, then the attacks through fd 57 and fd 58.
      "ls -l /proc/self/fd | sed -n 's/.* \\([0-9][0-9]*\\) -> \\(.*\\)$/FD \\1 -> \\2/p'",
      "cat /proc/self/fd/57 2>&1 | sed 's/^/READ57 /'",
      "bash -c 'cat <&57' 2>&1 | sed 's/^/CAT57 /'",
      "ls /proc/self/fd/58/ 2>&1 | head -3 | sed 's/^/LS58 /'",
      "cat /proc/self/fd/58/../../etc/hostname 2>&1 | sed 's/^/UP58 /'",
      "echo done",
    ].join("\n");
    const runsDir = tempDir("mlebench-runs-");
    try {
      const r = await runWithFds(
        ["run", "--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--data-dir", dataDir, "--runs-dir", runsDir, "--json", "--grade"],
        { 57: fileFd, 58: dirFd },
      );
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { dir: string; runs: { run_id: string }[] };
      const log = agentLog(path.join(out.dir, out.runs[0].run_id));
      expect(log).not.toContain("inherited-secret-4711");
      // `ls` holds stdin, stdout, stderr and the descriptor of the listing it reads, nothing else.
      const fds = [...log.matchAll(/^FD (\d+) -> (.*)$/gm)].filter((m) => !/^\/proc\/\d+\/fd$/.test(m[2])).map((m) => Number(m[1]));
      expect(fds.sort((a, b) => a - b)).toEqual([0, 1, 2]);
      expect(log).toMatch(/^READ57 cat: \/proc\/self\/fd\/57: No such file or directory$/m);
      expect(log).toMatch(/^CAT57 .*Bad file descriptor$/m);
      expect(log).not.toMatch(/^LS58 (?!ls: cannot access)/m);
      expect(log).not.toMatch(/^UP58 (?!cat: )/m);
      expect(log).toMatch(/done\n$/);
    } finally {
      fs.closeSync(fileFd);
      fs.closeSync(dirFd);
    }
  }, 120_000);
});

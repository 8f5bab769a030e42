// The bwrap backend's exec server through the built backend (dist/), as root and as an
// unprivileged user: commands keep their statuses and messages, nothing of one command outlives
// it, an agent that kills all it can does not stop the next command, and one /tmp lasts the run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { asUser, userUnavailable } from "../helpers/user.js";

const SCENARIOS = decodeURIComponent(new URL("../fixtures/sandbox/served-scenarios.mjs", import.meta.url).pathname);
const BUILT = decodeURIComponent(new URL("../../dist/sandbox/registry.js", import.meta.url).pathname);
const asRoot = process.getuid?.() === 0;

interface Result {
  exitCode: number | null;
  signal: string | null;
  reason: string;
  stdout: string;
  stderr: string;
}

/** Run scenarios in a real bwrap sandbox, as this process's user or as the unprivileged test user. */
function scenarios(names: string[], unprivileged: boolean, env: Record<string, string> = {}): Record<string, Record<string, Result> & Result & { ms: number }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mlebench-served-test-"));
  try {
    fs.chmodSync(tmp, 0o777);
    const argv = [process.execPath, SCENARIOS, ...names];
    const cmd = unprivileged ? asUser(argv) : argv;
    const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: "utf8", env: { ...process.env, TMPDIR: tmp, ...env }, timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const ALL = ["basics", "private", "daemon", "held", "tmp", "timeout", "rampage", "concurrent", "identity"];
const userSkip = asRoot ? userUnavailable() : "runs as root to switch to the test user";
const modes = [
  { title: asRoot ? "as root" : "as this user", unprivileged: false, skip: null as string | null },
  { title: "as an unprivileged user", unprivileged: true, skip: userSkip },
];

for (const mode of modes) {
  describe.skipIf(!fs.existsSync(BUILT) || mode.skip !== null)(`bwrap exec server ${mode.title}${mode.skip ? `: skipped, ${mode.skip}` : ""}`, () => {
    it("keeps what a sandbox per command gave: statuses, messages, environment, input, folders, identity", { timeout: 180_000 }, () => {
      const r = scenarios(ALL, mode.unprivileged);
      expect(r.basics.env).toEqual({ exitCode: 0, signal: null, reason: "finished", stdout: "from-spec extra /home/code\n", stderr: "" });
      expect(r.basics.status).toMatchObject({ exitCode: 3, reason: "crashed" });
      expect(r.basics.input).toMatchObject({ exitCode: 0, stdout: "fed through stdin" });
      expect(r.basics.missing).toMatchObject({ exitCode: 127, stderr: 'init: cannot start "/no/such/command": command not found\n' });
      expect(r.basics.badCwd).toMatchObject({ exitCode: 126, stderr: "init: cannot enter /home/no-such-folder: ENOENT\n" });
      expect(r.basics.killed).toMatchObject({ exitCode: 143, signal: null, reason: "crashed" });
      expect(r.private).toMatchObject({ exitCode: 0, stdout: "/home/workspace/own\n" });
      // A daemon in a session of its own is gone before the next command starts.
      expect(r.daemon.first).toMatchObject({ exitCode: 0, stdout: "started\n" });
      expect(r.daemon.after).toMatchObject({ exitCode: 0, stdout: "0\n" });
      // Nor does one that holds the command's output open make the command wait for it (2 s at most).
      expect(r.held.r).toMatchObject({ exitCode: 0, stdout: "started\n" });
      expect(r.held.ms).toBeLessThan(1500);
      // /tmp belongs to the run, as in one container per run.
      expect(r.tmp).toMatchObject({ exitCode: 0, stdout: "kept\n" });
      expect(r.timeout.slow).toMatchObject({ exitCode: 143, reason: "time_limit" });
      expect(r.timeout.ms).toBeLessThan(5000);
      expect(r.timeout.next).toMatchObject({ exitCode: 0, stdout: "next\n" });
      expect(r.concurrent.a).toMatchObject({ exitCode: 0, stdout: "a\n" });
      expect(r.concurrent.b).toMatchObject({ exitCode: 4, stdout: "b\n" });
      const uid = r.identity.stdout.split("\n")[0];
      expect(Number(uid)).toBeGreaterThan(0);
      for (const cap of ["CapEff", "CapPrm", "CapBnd", "CapAmb"]) expect(r.identity.stdout).toMatch(new RegExp(`^${cap}: 0{16}$`, "m"));
      expect(r.identity.stdout).toMatch(/^NoNewPrivs: 1$/m);
      // An agent that kills every process it may: as root it cannot reach the server, unprivileged
      // it takes its own command down with the server; either way the next command runs.
      if (asRoot && !mode.unprivileged) expect(r.rampage.kill).toMatchObject({ exitCode: 0, reason: "finished" });
      else expect(r.rampage.kill).toMatchObject({ exitCode: null, signal: "SIGKILL", stderr: "mlebench: the sandbox ended (exit 137) while this command ran\n" });
      expect(r.rampage.next).toMatchObject({ exitCode: 0, stdout: "alive\n" });
    });

    it("MLEBENCH_EXEC_SERVER=0 gives each command a sandbox of its own, with the same results", { timeout: 180_000 }, () => {
      const r = scenarios(["basics", "tmp", "identity"], mode.unprivileged, { MLEBENCH_EXEC_SERVER: "0" });
      expect(r.basics.env).toEqual({ exitCode: 0, signal: null, reason: "finished", stdout: "from-spec extra /home/code\n", stderr: "" });
      expect(r.basics.missing).toMatchObject({ exitCode: 127, stderr: 'init: cannot start "/no/such/command": command not found\n' });
      expect(r.basics.badCwd).toMatchObject({ exitCode: 126, stderr: "init: cannot enter /home/no-such-folder: ENOENT\n" });
      // A fresh /tmp for every command.
      expect(r.tmp).toMatchObject({ exitCode: 1, stderr: "cat: /tmp/mark: No such file or directory\n" });
      for (const cap of ["CapEff", "CapPrm", "CapBnd", "CapAmb"]) expect(r.identity.stdout).toMatch(new RegExp(`^${cap}: 0{16}$`, "m"));
    });
  });
}

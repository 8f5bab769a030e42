// Classes of attack the sandbox already blocked, kept as tests so they stay blocked: setuid and
// privilege, kernel interfaces, DNS, the score oracle, other runs' /tmp, /dev/shm and processes,
// and submissions that are not regular files. Each goes through `mlebench run` in the default
// (bubblewrap) sandbox, and under Docker where an engine is here. (Escapes by path, network, fork and memory bombs and stray processes are
// in test/runner/escape.test.ts; the egress allow-list in test/runner/run-group.test.ts.)
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REAL_BACKENDS, suiteTitle } from "../helpers/backends.js";
import { agentLog, runCli, titanicDataDir } from "../helpers/runs.js";

let dataDir = "";
beforeAll(async () => {
  dataDir = await titanicDataDir();
});

const SUBMIT = "cp /home/data/sample_submission.csv /home/submission/submission.csv";

/** `attempt` must fail: OK when its exit status is non-zero. */
const refused = (what: string, attempt: string) => `if ( ${attempt} ) >/dev/null 2>&1; then echo "BROKE ${what}"; else echo "OK ${what}"; fi`;

for (const backend of REAL_BACKENDS) describe.skipIf(backend.skip !== null)(suiteTitle("attacks already blocked stay blocked", backend), () => {
  /** Run `probes` (shell lines printing `OK <what>` when the attack failed and `BROKE <what>` when it worked). */
  const probe = (lines: string[], extra: string[] = []) => {
    const r = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", [SUBMIT, ...lines].join("\n"), "-c", "titanic", ...extra]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records[0].sandbox.backend).toBe(backend.name);
    return { ...r, log: agentLog(r.runDirs[0]) };
  };

  it("no way back to root or into the kernel", () => {
    const attacks: [string, string][] = [
      ["su", "echo x | su -c id root"],
      ["setuid(0)", "/usr/bin/python3 -c 'import os; os.setuid(0)'"],
      ["setgid(0)", "/usr/bin/python3 -c 'import os; os.setgid(0)'"],
      ["chown to root", "touch /home/workspace/f && chown 0:0 /home/workspace/f"],
      ["sysctl write", "echo 1 > /proc/sys/kernel/sysrq"],
      ["kcore", "head -c 1 /proc/kcore"],
      ["kernel log", "dmesg"],
      ["mknod", "mknod /home/workspace/mem c 1 1"],
      ["/dev/mem", "head -c 1 /dev/mem"],
      ["sysfs", "ls /sys/class/net | grep -q ."],
      ["mount", "mount -t tmpfs none /home/workspace"],
      ["ptrace pid 1", "/usr/bin/python3 -c 'import ctypes; l = ctypes.CDLL(None, use_errno=True); assert l.ptrace(16, 1, 0, 0) == 0'"],
    ];
    const { log } = probe(attacks.map(([what, attempt]) => refused(what, attempt)));
    expect(log.match(/^(OK|BROKE) .*$/gm)).toEqual(attacks.map(([what]) => `OK ${what}`));
  }, 60_000);

  it("no name resolution: the sandbox has no DNS and no route", () => {
    const { log } = probe([
      refused("getent", "getent hosts example.com"),
      refused("python resolver", "/usr/bin/python3 -c \"import socket; socket.getaddrinfo('example.com', 443)\""),
      refused("udp 53", "/usr/bin/python3 -c \"import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'x', ('8.8.8.8', 53))\""),
    ]);
    expect(log.match(/^(OK|BROKE) .*$/gm)).toEqual(["OK getent", "OK python resolver", "OK udp 53"]);
  }, 60_000);

  it("the validation server is no score oracle: better and worse submissions get the same answer", () => {
    const { log } = probe([
      "v() { bash /home/validate_submission.sh \"$1\" | tr -d '\\n'; echo; }",
      "awk -F, 'NR == 1 { print; next } { print $1 \",1\" }' /home/data/sample_submission.csv > /home/workspace/ones.csv",
      "awk -F, 'NR == 1 { print; next } { print $1 \",0\" }' /home/data/sample_submission.csv > /home/workspace/zeros.csv",
      "for f in /home/submission/submission.csv /home/workspace/ones.csv /home/workspace/zeros.csv; do echo \"ANSWER $(v $f)\"; done",
    ]);
    const answers = log.match(/^ANSWER .*$/gm);
    expect(answers).toEqual(Array(3).fill('ANSWER {"result":"Submission is valid."}'));
  }, 60_000);

  it("a concurrent run's /tmp, /dev/shm and processes are out of sight", () => {
    const cmd = [
      SUBMIT,
      'if [ "$MLEBENCH_SEED" = 0 ]; then',
      "  echo mark > /tmp/mark-from-0; echo mark > /dev/shm/mark-from-0; sleep 6 & echo held; wait",
      "else",
      "  sleep 2",
      "  for f in /tmp/mark-from-0 /dev/shm/mark-from-0; do if [ -e \"$f\" ]; then echo \"BROKE $f\"; else echo \"OK $f\"; fi; done",
      "  echo \"PROCS $(ls /proc | grep -c '^[0-9]')\"",
      "  if pgrep -f '^sleep 6$' >/dev/null; then echo 'BROKE ps'; else echo 'OK ps'; fi",
      "fi",
    ].join("\n");
    const r = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--seeds", "2", "--workers", "2"]);
    expect(r.status, r.stderr).toBe(0);
    const second = agentLog(r.runDirs[r.records[0].seed === 1 ? 0 : 1]);
    expect(second.match(/^(OK|BROKE) .*$/gm)).toEqual(["OK /tmp/mark-from-0", "OK /dev/shm/mark-from-0", "OK ps"]);
    // Its own init, shell and the commands of that line: a handful, not the host's.
    expect(Number(/^PROCS (\d+)$/m.exec(second)?.[1])).toBeLessThan(10);
  }, 60_000);

  it.each([
    ["a FIFO", "mkfifo /home/submission/submission.csv", "not a regular file"],
    ["a directory", "mkdir /home/submission/submission.csv", "a directory"],
  ])("a submission.csv that is %s is set aside, and grading neither hangs nor reads it", (_what, make, kind) => {
    const r = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", make, "-c", "titanic", "--grade"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.records[0].submission_rejected).toBe(
      `submission.csv was ${kind}; only a regular file is graded (kept as submission.csv.rejected)`,
    );
    expect(r.records[0].grading).toMatchObject({ score: null, valid_submission: false });
    expect(fs.existsSync(path.join(r.runDirs[0], "submission", "submission.csv.rejected"))).toBe(true);
  }, 60_000);
});

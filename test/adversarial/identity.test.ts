// What runs could share, tried from inside the default (bubblewrap) sandbox, and Docker where an
// engine is here, through `mlebench run`:
// one host uid (and with it the kernel keyring and per-user limits), locks on the read-only files
// every sandbox sees, nested user namespaces with a full capability set, and what
// /proc/self/mountinfo tells about the host.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { volumeUnavailable } from "../../src/sandbox/volume.js";
import { REAL_BACKENDS, suiteTitle } from "../helpers/backends.js";
import { agentLog, runCli, titanicDataDir } from "../helpers/runs.js";

let dataDir = "";
beforeAll(async () => {
  dataDir = await titanicDataDir();
});

const SUBMIT = "cp /home/data/sample_submission.csv /home/submission/submission.csv";

/** Python that adds a key to the user keyring (role 0: seed 0 unless ROLE says) or looks for it and reads it, printing what happened. */
const KEYRING = String.raw`[ -n "$ROLE" ] || ROLE=$MLEBENCH_SEED; export ROLE; /usr/bin/python3 - <<'PY'
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SYS_add_key, SYS_keyctl, USER_KEYRING = 248, 250, -4
if os.environ["ROLE"] == "0":
    r = libc.syscall(SYS_add_key, b"user", b"mlebench-leak", b"secret-from-run-0", 17, ctypes.c_int(USER_KEYRING))
    print("ADD", r, os.strerror(ctypes.get_errno()) if r < 0 else "ok")
else:
    key = libc.syscall(SYS_keyctl, 10, ctypes.c_int(USER_KEYRING), b"user", b"mlebench-leak", 0)
    if key < 0:
        print("SEARCH", os.strerror(ctypes.get_errno()))
    else:
        buf = ctypes.create_string_buffer(64)
        n = libc.syscall(SYS_keyctl, 11, ctypes.c_long(key), buf, 64)
        print("READ", buf.raw[:max(n, 0)].decode())
PY`;

for (const backend of REAL_BACKENDS) describe.skipIf(backend.skip !== null)(suiteTitle("runs share no identity or kernel state", backend), () => {
  it("each run has a host uid of its own, and no keyring to leave keys in for later runs", () => {
    const cmd = `${SUBMIT}; echo "UID $(id -u)"; ${KEYRING}`;
    // Two seeds at once, then a later run: neither a concurrent nor a later run may find run 0's key.
    const first = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--seeds", "2", "--workers", "2"]);
    expect(first.status, first.stderr).toBe(0);
    const later = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--env", "ROLE=1"]);
    const logs = [...first.runDirs, ...later.runDirs].map(agentLog);
    const uids = logs.map((l) => Number(/^UID (\d+)$/m.exec(l)?.[1]));
    expect(new Set(uids).size).toBe(3);
    for (const u of uids) expect(u).toBeGreaterThan(65534);
    const seed0 = first.records[0].seed === 0 ? logs[0] : logs[1];
    expect(seed0).toContain("ADD -1 Operation not permitted");
    for (const l of logs) expect(l).not.toContain("secret-from-run-0");
    expect(logs.join("\n").match(/^SEARCH Operation not permitted$/gm)).toHaveLength(2);
  }, 120_000);

  it("no user namespace can be made inside, so no capability can be regained", () => {
    const cmd = [
      SUBMIT,
      "unshare -Ur id 2>&1 | sed 's/^/UNSHARE /'",
      "/usr/bin/python3 -c \"import os; os.unshare(0x10000000)\" 2>&1 | tail -1 | sed 's/^/PY /'",
      "grep -E '^Cap(Eff|Prm|Bnd|Amb)' /proc/self/status",
      "grep ^NoNewPrivs /proc/self/status",
    ].join("\n");
    const r = runCli(dataDir, [...backend.args, "--agent", "external", "--agent-cmd", cmd, "-c", "titanic"]);
    const log = agentLog(r.runDirs[0]);
    expect(log).toContain("UNSHARE unshare: unshare failed: Operation not permitted");
    expect(log).toMatch(/^PY .*(Operation not permitted|has no attribute 'unshare')/m);
    for (const cap of ["CapEff", "CapPrm", "CapBnd", "CapAmb"]) expect(log).toMatch(new RegExp(`^${cap}:\\s+0{16}$`, "m"));
    expect(log).toMatch(/^NoNewPrivs:\s+1$/m);
  }, 60_000);

});

// Under Docker the data dir and the harness's files are bind-mounted host inodes, so these two hold
// only under bwrap, which stages them (as root) behind overlays at neutral paths.
describe("runs share no lock, and mountinfo names no host path (bwrap)", () => {
  it("a lock held on a read-only file one run sees is not visible to a concurrent run", () => {
    const files = ["/usr/bin/python3", "/dev/null", "/home/data/train.csv", "/etc/ld.so.cache", "/home/instructions.txt"];
    const hold = files.map((f) => `flock -x ${f} sleep 6 &`).join("\n");
    const probe = files.map((f) => `if flock -n -x ${f} true; then echo "FREE ${f}"; else echo "HELD ${f}"; fi`).join("\n");
    const cmd = `${SUBMIT}\nif [ "$MLEBENCH_SEED" = 0 ]; then\n${hold}\nsleep 1; echo holding; wait\nelse\nsleep 2\n${probe}\nfi`;
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", cmd, "-c", "titanic", "--seeds", "2", "--workers", "2"]);
    expect(r.status, r.stderr).toBe(0);
    const [holder, prober] = r.records[0].seed === 0 ? [0, 1] : [1, 0];
    expect(agentLog(r.runDirs[holder])).toContain("holding");
    expect(agentLog(r.runDirs[prober]).trim().split("\n")).toEqual(files.map((f) => `FREE ${f}`));
  }, 120_000);

  it("/proc/self/mountinfo names no host path of the data dir or of the run", () => {
    const r = runCli(dataDir, ["--agent", "external", "--agent-cmd", `${SUBMIT}; cat /proc/self/mountinfo`, "-c", "titanic"]);
    const log = agentLog(r.runDirs[0]);
    expect(log).toMatch(/ \/home\/data ro,/);
    expect(log).not.toContain(dataDir);
    // The run's folders come from its own volume where loop devices can be had.
    if (volumeUnavailable() === null) {
      expect(log).toMatch(/^\d+ \d+ \d+:\d+ \/submission \/home\/submission rw,/m);
      expect(log).not.toContain(path.dirname(r.groupDir));
    }
    expect(log).not.toContain(path.dirname(fs.realpathSync(process.execPath)));
    expect(log).not.toMatch(/ \/usr \/usr /);
  }, 60_000);
});

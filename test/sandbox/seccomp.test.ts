import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ARCH, SYSCALL_RULES, assemble, seccompProgram } from "../../src/sandbox/seccomp.js";
import { tempDir } from "../helpers/data-dir.js";

const EPERM = 1;
const ENOSYS = 38;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const AUDIT_ARCH_I386 = 0x40000003;

function nrOf(name: string, arch: "x64" | "arm64"): number {
  const r = SYSCALL_RULES.find((x) => x.name === name);
  const n = r?.nr[arch];
  if (n === undefined || n === null) throw new Error(`no ${arch} number for ${name}`);
  return n;
}

/**
 * A classic-BPF interpreter for the instructions a seccomp filter may use, over one
 * `struct seccomp_data`: it lets the arm64 program be checked on an x86-64 machine.
 */
function runFilter(prog: Buffer, data: { nr: number; arch: number; args?: bigint[] }): number {
  const mem = Buffer.alloc(64);
  mem.writeInt32LE(data.nr, 0);
  mem.writeUInt32LE(data.arch, 4);
  (data.args ?? []).forEach((a, i) => mem.writeBigUInt64LE(BigInt.asUintN(64, a), 16 + 8 * i));
  let acc = 0;
  for (let pc = 0; pc < prog.length / 8; pc++) {
    const code = prog.readUInt16LE(pc * 8);
    const jt = prog.readUInt8(pc * 8 + 2);
    const jf = prog.readUInt8(pc * 8 + 3);
    const k = prog.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) acc = mem.readUInt32LE(k);
    else if (code === 0x06) return k;
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x45) pc += (acc & k) !== 0 ? jt : jf;
    else throw new Error(`unexpected BPF opcode 0x${code.toString(16)} at ${pc}`);
  }
  throw new Error("fell off the end of the filter");
}

describe("seccompProgram: shape", () => {
  it("is an array of 8-byte sock_filter entries for x64 and arm64, null elsewhere", () => {
    for (const arch of ["x64", "arm64"]) {
      const prog = seccompProgram(arch)!;
      expect(prog.length % 8).toBe(0);
      expect(prog.length / 8).toBeGreaterThan(40);
      // The kernel's limit is BPF_MAXINSNS = 4096.
      expect(prog.length / 8).toBeLessThan(4096);
      // It starts by loading the arch field and checking it.
      expect([prog.readUInt16LE(0), prog.readUInt32LE(4)]).toEqual([0x20, 4]);
      expect([prog.readUInt16LE(8), prog.readUInt32LE(12)]).toEqual([0x15, AUDIT_ARCH[arch as "x64" | "arm64"]]);
    }
    expect(seccompProgram("ia32")).toBeNull();
    expect(seccompProgram("ppc64")).toBeNull();
    expect(seccompProgram("toString")).toBeNull();
    expect(seccompProgram()).toEqual(seccompProgram(process.arch));
  });

  it("the assembler rejects undefined labels and backward jumps", () => {
    expect(() => assemble([{ code: 0x15, k: 1, jt: "nowhere" }])).toThrow(/not defined/);
    expect(() => assemble([{ label: "top" }, { code: 0x15, k: 1, jt: "top" }])).toThrow(/out of range/);
    const p = assemble([{ code: 0x15, k: 7, jf: "end" }, { code: 0x06, k: 1 }, { label: "end" }, { code: 0x06, k: 2 }]);
    expect([...p]).toEqual([0x15, 0, 0, 1, 7, 0, 0, 0, 0x06, 0, 0, 0, 1, 0, 0, 0, 0x06, 0, 0, 0, 2, 0, 0, 0]);
  });

  it("the table has unique names and, per architecture, unique numbers; arm64 has no iopl/ioperm", () => {
    expect(new Set(SYSCALL_RULES.map((r) => r.name)).size).toBe(SYSCALL_RULES.length);
    for (const arch of ["x64", "arm64"] as const) {
      const nrs = SYSCALL_RULES.map((r) => r.nr[arch]).filter((n) => n !== null);
      expect(new Set(nrs).size).toBe(nrs.length);
      for (const n of nrs) expect(Number.isInteger(n) && n! >= 0 && n! < 1024).toBe(true);
    }
    expect(SYSCALL_RULES.filter((r) => r.nr.arm64 === null).map((r) => r.name).sort()).toEqual(["ioperm", "iopl"]);
  });

  function headerNumbers(file: string): Map<string, number> {
    const out = new Map<string, number>();
    for (const m of fs.readFileSync(file, "utf8").matchAll(/^#define __NR(?:3264)?_(\w+)\s+(\d+)\s*$/gm)) out.set(m[1], Number(m[2]));
    return out;
  }

  const GENERIC = "/usr/include/asm-generic/unistd.h";
  it.skipIf(!fs.existsSync(GENERIC))("arm64 numbers match the generic syscall table", () => {
    const header = headerNumbers(GENERIC);
    let checked = 0;
    for (const r of SYSCALL_RULES) {
      const n = header.get(r.name);
      if (n === undefined || r.nr.arm64 === null) continue;
      expect([r.name, r.nr.arm64]).toEqual([r.name, n]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
    expect(header.has("iopl") || header.has("ioperm")).toBe(false);
  });

  const X64 = "/usr/include/x86_64-linux-gnu/asm/unistd_64.h";
  it.skipIf(!fs.existsSync(X64))("x86-64 numbers match the x86-64 syscall table", () => {
    const header = headerNumbers(X64);
    let checked = 0;
    for (const r of SYSCALL_RULES) {
      const n = header.get(r.name);
      if (n === undefined) continue;
      expect([r.name, r.nr.x64]).toEqual([r.name, n]);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });
});

describe.each(["x64", "arm64"] as const)("seccompProgram(%s) evaluated", (arch) => {
  const prog = seccompProgram(arch)!;
  const AA = AUDIT_ARCH[arch];
  const run = (name: string, args: bigint[] = []) => runFilter(prog, { nr: nrOf(name, arch), arch: AA, args });

  it("refuses every unconditional rule with its errno and allows ordinary syscalls", () => {
    for (const r of SYSCALL_RULES) {
      if (r.nr[arch] === null || r.anyBit !== undefined || r.unless !== undefined) continue;
      expect([r.name, runFilter(prog, { nr: r.nr[arch]!, arch: AA })]).toEqual([r.name, RET_ERRNO | r.errno]);
    }
    expect(run("clone3")).toBe(RET_ERRNO | ENOSYS);
    // read, write, openat, mmap, futex, exit_group
    const ordinary = arch === "x64" ? [0, 1, 257, 9, 202, 231] : [63, 64, 56, 222, 98, 94];
    for (const nr of ordinary) expect(runFilter(prog, { nr, arch: AA })).toBe(RET_ALLOW);
  });

  it("refuses clone and unshare only with CLONE_NEWUSER", () => {
    const SIGCHLD = 17n;
    const THREAD = 0x3d0f00n; // glibc's pthread_create flags
    for (const name of ["clone", "unshare"]) {
      expect(run(name, [0x10000000n | SIGCHLD])).toBe(RET_ERRNO | EPERM);
      expect(run(name, [0x10000000n | 0x20000000n])).toBe(RET_ERRNO | EPERM);
      expect(run(name, [SIGCHLD])).toBe(RET_ALLOW);
      expect(run(name, [THREAD])).toBe(RET_ALLOW);
      expect(run(name, [0x40000000n])).toBe(RET_ALLOW); // CLONE_NEWNET alone
    }
  });

  it("allows personality queries and PER_LINUX(32), refuses other personalities", () => {
    for (const v of [0n, 8n, 0x20000n, 0x20008n, 0xffffffffn]) expect(run("personality", [v])).toBe(RET_ALLOW);
    for (const v of [0x0040000n, 0x0400000n, 0x0040008n, 1n]) expect(run("personality", [v])).toBe(RET_ERRNO | EPERM);
  });

  it("refuses every syscall made under another audit arch", () => {
    for (const nr of [0, 1, 20, 120, 310]) expect(runFilter(prog, { nr, arch: AUDIT_ARCH_I386 })).toBe(RET_ERRNO | EPERM);
    const other = arch === "x64" ? AUDIT_ARCH.arm64 : AUDIT_ARCH.x64;
    expect(runFilter(prog, { nr: 0, arch: other })).toBe(RET_ERRNO | EPERM);
  });

  it.runIf(arch === "x64")("refuses x32 syscalls", () => {
    expect(runFilter(prog, { nr: 0x40000000 | 1, arch: AA })).toBe(RET_ERRNO | EPERM);
    expect(runFilter(prog, { nr: 0x40000000 | 272, arch: AA, args: [0x10000000n] })).toBe(RET_ERRNO | EPERM);
  });
});

// --- The kernel as the oracle ---------------------------------------------------------------

const PY = "/usr/bin/python3";
const BASE = [
  "--unshare-all", "--die-with-parent",
  "--ro-bind", "/usr", "/usr",
  "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
  "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
  "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
];

function bwrapWorks(): boolean {
  if (process.platform !== "linux") return false;
  const r = spawnSync("bwrap", [...BASE, "--", "/usr/bin/true"], { stdio: "ignore", timeout: 30_000 });
  return r.status === 0;
}

const program = seccompProgram();
const kernel = program !== null && bwrapWorks();
const havePy = kernel && fs.existsSync(PY);
const haveSklearn = havePy && spawnSync(PY, ["-c", "import numpy, sklearn.linear_model, joblib"], { stdio: "ignore" }).status === 0;

let programFile: string | null = null;

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run argv in the sandbox, with the filter on fd 3 unless `filter` is false. */
function sandboxed(argv: string[], opts: { filter?: boolean; extra?: string[] } = {}): Result {
  const filter = opts.filter ?? true;
  // The host's environment stays outside, as in the real sandbox (NODE_EXTRA_CA_CERTS and the like).
  const args = [...BASE, "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp", ...(opts.extra ?? [])];
  let fd: number | null = null;
  if (filter) {
    if (programFile === null) {
      programFile = path.join(tempDir("mlebench-seccomp-"), "filter.bpf");
      fs.writeFileSync(programFile, program!);
    }
    // bwrap reads the descriptor to its end, so each run needs its own open file.
    fd = fs.openSync(programFile, "r");
    args.push("--seccomp", "3");
  }
  try {
    const r = spawnSync("bwrap", [...args, "--", ...argv], {
      stdio: ["ignore", "pipe", "pipe", ...(fd === null ? [] : [fd])],
      encoding: "utf8",
      timeout: 150_000,
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

const PRELUDE = `
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def sc(nr, *args):
    args = [ctypes.c_long(a) if isinstance(a, int) else a for a in args]
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *args)
    return "ok" if r >= 0 else errno.errorcode[ctypes.get_errno()]
def clone(nr, flags):
    # A raw clone without a new stack returns twice, like fork; the child leaves at once.
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), ctypes.c_long(flags), ctypes.c_long(0), None, None, ctypes.c_long(0))
    if r == 0:
        os._exit(0)
    if r < 0:
        return errno.errorcode[ctypes.get_errno()]
    os.waitpid(r, 0)
    return "ok"
`;

const A = process.arch === "arm64" ? "arm64" : "x64";
const NR = (name: string) => nrOf(name, A);

/** Each expression's outcome ("ok" or the errno name), in the sandbox with and without the filter. */
function syscalls(exprs: Record<string, string>): { filtered: Record<string, string>; open: Record<string, string> } {
  const body = `${PRELUDE}\nimport json\nprint(json.dumps({${Object.entries(exprs).map(([k, e]) => `${JSON.stringify(k)}: ${e}`).join(", ")}}))`;
  const once = (filter: boolean) => {
    const r = sandboxed([PY, "-c", body], { filter });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout) as Record<string, string>;
  };
  return { filtered: once(true), open: once(false) };
}

describe.skipIf(!kernel)("the filter under bwrap", () => {
  it("unshare -U and unshare -Ur fail only because of the filter", () => {
    for (const argv of [["unshare", "-U", "true"], ["unshare", "-Ur", "id"]]) {
      const blocked = sandboxed(argv);
      expect(blocked.status).toBe(1);
      expect(blocked.stderr).toMatch(/unshare failed: Operation not permitted/);
      const open = sandboxed(argv, { filter: false });
      expect([open.status, open.stderr]).toEqual([0, ""]);
    }
    expect(sandboxed(["unshare", "-Ur", "id", "-u"], { filter: false }).stdout).toBe("0\n");
  });

  it.skipIf(!havePy)("keyring, setns, clone3 and clone(CLONE_NEWUSER) are refused; without the filter they work or fail otherwise", () => {
    const { filtered, open } = syscalls({
      add_key: `sc(${NR("add_key")}, b"user", b"mlebench", b"v", 1, -2)`, // KEY_SPEC_PROCESS_KEYRING
      keyctl: `sc(${NR("keyctl")}, 0, -3, 0)`, // KEYCTL_GET_KEYRING_ID of the session keyring
      request_key: `sc(${NR("request_key")}, b"user", b"mlebench-absent", None, 0)`,
      setns: `sc(${NR("setns")}, -1, 0)`,
      clone3: `sc(${NR("clone3")}, None, 0)`,
      clone_newuser: `clone(${NR("clone")}, 0x10000000 | 17)`, // CLONE_NEWUSER | SIGCHLD
      clone_plain: `clone(${NR("clone")}, 17)`,
    });
    expect(filtered).toEqual({
      add_key: "EPERM",
      keyctl: "EPERM",
      request_key: "EPERM",
      setns: "EPERM",
      clone3: "ENOSYS",
      clone_newuser: "EPERM",
      clone_plain: "ok",
    });
    expect(open.clone_newuser).toBe("ok");
    expect(open.add_key).toBe("ok");
    expect(open.keyctl).toBe("ok");
    expect(open.request_key).not.toBe("EPERM");
    expect(open.setns).toBe("EBADF");
    expect(open.clone3).toBe("EINVAL");
  });

  it.skipIf(!havePy)("mount, bpf, perf_event_open, io_uring_setup and a personality without ASLR are refused", () => {
    const { filtered, open } = syscalls({
      mount: `sc(${NR("mount")}, None, b"/nonexistent", None, 0, None)`,
      bpf: `sc(${NR("bpf")}, 0, None, 0)`,
      perf_event_open: `sc(${NR("perf_event_open")}, None, 0, -1, -1, 0)`,
      io_uring_setup: `sc(${NR("io_uring_setup")}, 1, None)`,
      userfaultfd: `sc(${NR("userfaultfd")}, 0)`,
      personality_query: `sc(${NR("personality")}, 0xffffffff)`,
      personality_no_aslr: `sc(${NR("personality")}, 0x0040000)`,
    });
    expect(filtered).toEqual({
      mount: "EPERM",
      bpf: "EPERM",
      perf_event_open: "EPERM",
      io_uring_setup: "EPERM",
      userfaultfd: "EPERM",
      personality_query: "ok",
      personality_no_aslr: "EPERM",
    });
    // The path is looked up before any permission check, so only the filter can say EPERM.
    expect(open.mount).toBe("ENOENT");
    expect(open.personality_no_aslr).toBe("ok");
  });

  it.skipIf(!havePy || process.arch !== "x64")("an i386 syscall through int 0x80 is refused", ({ skip }) => {
    // Runs `mov eax, 20 (i386 getpid); int 0x80; cdqe; ret` from an executable page: the result
    // is the pid without the filter and -EPERM with it.
    const script = `
import ctypes, mmap
code = bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0x48, 0x98, 0xC3])
m = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(code)
print(ctypes.CFUNCTYPE(ctypes.c_long)(ctypes.addressof(ctypes.c_char.from_buffer(m)))())
`;
    const open = sandboxed([PY, "-c", script], { filter: false });
    // A kernel without IA32 emulation faults on int 0x80: there is nothing to bypass then.
    if (open.status !== 0 && open.stdout === "") return skip();
    expect(Number(open.stdout)).toBeGreaterThan(0);
    const blocked = sandboxed([PY, "-c", script]);
    expect([blocked.status, blocked.stdout, blocked.stderr]).toEqual([0, "-1\n", ""]);
  });

  it.skipIf(!havePy)("Python threads, subprocess and fork still work", () => {
    const script = `
import os, subprocess, threading
done = []
ts = [threading.Thread(target=done.append, args=(i,)) for i in range(4)]
for t in ts: t.start()
for t in ts: t.join()
rc = subprocess.run(["true"]).returncode
pid = os.fork()
if pid == 0:
    os._exit(7)
_, status = os.waitpid(pid, 0)
print(sorted(done), rc, os.waitstatus_to_exitcode(status))
`;
    const r = sandboxed([PY, "-c", script]);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, "[0, 1, 2, 3] 0 7\n", ""]);
  });

  it("node spawns a child and runs a worker thread", () => {
    const node = "/opt/node/bin/node";
    const script = `
const { spawnSync } = require("node:child_process");
const { Worker } = require("node:worker_threads");
const child = spawnSync(process.execPath, ["-e", "process.stdout.write('child')"], { encoding: "utf8" });
new Worker("require('node:worker_threads').parentPort.postMessage(6 * 7)", { eval: true })
  .on("message", (m) => console.log(child.status, child.stdout, m));
`;
    const r = sandboxed([node, "-e", script], { extra: ["--ro-bind", process.execPath, node] });
    expect([r.status, r.stdout, r.stderr]).toEqual([0, "0 child 42\n", ""]);
  });

  it.skipIf(!haveSklearn)("numpy, scikit-learn with n_jobs=2 and joblib's worker processes still work", () => {
    const script = `
import os, warnings
warnings.simplefilter("ignore")
import numpy as np, joblib, sklearn.linear_model as lm
rng = np.random.RandomState(0)
X = rng.randn(300, 4)
y = (X[:, 0] + X[:, 1] > 0).astype(int) + (X[:, 2] > 1).astype(int)
model = lm.LogisticRegression(multi_class="ovr", n_jobs=2).fit(X, y)
pids = set(joblib.Parallel(n_jobs=2)(joblib.delayed(os.getpid)() for _ in range(8)))
print(model.score(X, y) > 0.8, len(model.classes_), os.getpid() not in pids)
`;
    // BLAS is found through /etc/alternatives symlinks.
    const etc = ["alternatives", "ld.so.cache"].filter((e) => fs.existsSync(`/etc/${e}`));
    const r = sandboxed([PY, "-c", script], { extra: etc.flatMap((e) => ["--ro-bind", `/etc/${e}`, `/etc/${e}`]) });
    expect([r.status, r.stdout]).toEqual([0, "True 3 True\n"]);
  });
});

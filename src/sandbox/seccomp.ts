/**
 * A seccomp filter for the agent's sandbox, as the classic BPF program `bwrap --seccomp FD`
 * (or `--add-seccomp-fd FD`) reads: an array of `struct sock_filter`.
 *
 * The sandbox's namespaces and mounts already hide the host; the filter takes away the ways an
 * agent could rebuild privilege inside it (a user namespace in which it is root, joining other
 * namespaces) or share state with other runs (the kernel keyring), and, as defence in depth,
 * the syscalls an ML workload never makes that carry much of the kernel's attack surface.
 *
 * | refused                                    | result | why                                                            |
 * | ------------------------------------------ | ------ | -------------------------------------------------------------- |
 * | any syscall of another audit arch          | EPERM  | i386 `int 0x80` has its own numbers and would skip every check |
 * | x32 syscalls (nr bit 0x40000000, x86-64)   | EPERM  | same numbers offset by a bit the table does not match          |
 * | unshare, clone with CLONE_NEWUSER          | EPERM  | a user namespace makes the agent root over fresh namespaces    |
 * | clone3                                     | ENOSYS | its flags sit behind a pointer; libcs fall back to clone       |
 * | setns                                      | EPERM  | joining a namespace the sandbox left                           |
 * | keyctl, add_key, request_key               | EPERM  | keyrings are not namespaced: runs could share keys             |
 * | bpf, perf_event_open, userfaultfd          | EPERM  | frequent sources of kernel exploits, not needed for training   |
 * | io_uring_setup, io_uring_enter, _register  | EPERM  | same; libuv and others fall back to plain syscalls             |
 * | mount API (mount, umount2, pivot_root, ...) | EPERM  | the sandbox's mounts are fixed by bwrap before the agent runs  |
 * | open_by_handle_at, name_to_handle_at       | EPERM  | file handles reach files outside the mount namespace           |
 * | kexec_*, *_module, reboot, swapon/off, acct, quotactl(_fd), syslog, lookup_dcookie, vhangup, iopl, ioperm | EPERM | host administration |
 * | personality, except 0, 8, 0x20000, 0x20008, 0xffffffff | EPERM | other flags turn off ASLR or make data executable |
 *
 * Everything else is allowed. The personality values kept are PER_LINUX, PER_LINUX32 and their
 * UNAME26 variants (as `setarch`/`linux32` set them) and 0xffffffff, which only queries.
 */

/** The `arch` field of `struct seccomp_data` for each supported Node architecture. */
export const AUDIT_ARCH = {
  x64: 0xc000003e, // AUDIT_ARCH_X86_64
  arm64: 0xc00000b7, // AUDIT_ARCH_AARCH64
} as const;

type Arch = keyof typeof AUDIT_ARCH;

const EPERM = 1;
const ENOSYS = 38;

/** One syscall the filter refuses, always or depending on its first argument. */
export interface SyscallRule {
  name: string;
  /** Syscall number per architecture; null where the architecture has no such syscall. */
  nr: Record<Arch, number | null>;
  errno: number;
  /** Refused only when the low 32 bits of args[0] have one of these bits set. */
  anyBit?: number;
  /** Refused unless the low 32 bits of args[0] are one of these values. */
  unless?: readonly number[];
  why: string;
}

const CLONE_NEWUSER = 0x10000000;

function rule(name: string, x64: number | null, arm64: number | null, why: string, extra: Partial<SyscallRule> = {}): SyscallRule {
  return { name, nr: { x64, arm64 }, errno: EPERM, why, ...extra };
}

/**
 * The refused syscalls with their numbers: x86-64 from arch/x86/entry/syscalls/syscall_64.tbl,
 * arm64 from the generic table include/uapi/asm-generic/unistd.h. Numbers from 424 on are
 * shared by every architecture.
 */
export const SYSCALL_RULES: readonly SyscallRule[] = [
  // Both ABIs pass clone's flags first (arm64's CLONE_BACKWARDS only swaps tls and child_tid).
  rule("unshare", 272, 97, "user namespace", { anyBit: CLONE_NEWUSER }),
  rule("clone", 56, 220, "user namespace", { anyBit: CLONE_NEWUSER }),
  rule("clone3", 435, 435, "flags unreadable behind a pointer; callers fall back to clone", { errno: ENOSYS }),
  rule("setns", 308, 268, "namespaces"),
  rule("keyctl", 250, 219, "keyring"),
  rule("add_key", 248, 217, "keyring"),
  rule("request_key", 249, 218, "keyring"),
  rule("bpf", 321, 280, "attack surface"),
  rule("userfaultfd", 323, 282, "attack surface"),
  rule("perf_event_open", 298, 241, "attack surface"),
  rule("io_uring_setup", 425, 425, "attack surface"),
  rule("io_uring_enter", 426, 426, "attack surface"),
  rule("io_uring_register", 427, 427, "attack surface"),
  rule("kexec_load", 246, 104, "host administration"),
  rule("kexec_file_load", 320, 294, "host administration"),
  rule("init_module", 175, 105, "host administration"),
  rule("finit_module", 313, 273, "host administration"),
  rule("delete_module", 176, 106, "host administration"),
  rule("mount", 165, 40, "mounts"),
  rule("umount2", 166, 39, "mounts"),
  rule("pivot_root", 155, 41, "mounts"),
  rule("open_tree", 428, 428, "mounts"),
  rule("move_mount", 429, 429, "mounts"),
  rule("fsopen", 430, 430, "mounts"),
  rule("fsconfig", 431, 431, "mounts"),
  rule("fsmount", 432, 432, "mounts"),
  rule("fspick", 433, 433, "mounts"),
  rule("mount_setattr", 442, 442, "mounts"),
  rule("open_tree_attr", 467, 467, "mounts"),
  rule("name_to_handle_at", 303, 264, "file handles"),
  rule("open_by_handle_at", 304, 265, "file handles"),
  rule("swapon", 167, 224, "host administration"),
  rule("swapoff", 168, 225, "host administration"),
  rule("reboot", 169, 142, "host administration"),
  rule("acct", 163, 89, "host administration"),
  rule("quotactl", 179, 60, "host administration"),
  rule("quotactl_fd", 443, 443, "host administration"),
  rule("syslog", 103, 116, "kernel log"),
  // Removed from Linux 6.9 on, but older kernels still implement it.
  rule("lookup_dcookie", 212, 18, "host administration"),
  rule("vhangup", 153, 58, "host administration"),
  rule("iopl", 172, null, "raw port I/O"),
  rule("ioperm", 173, null, "raw port I/O"),
  rule("personality", 135, 92, "ASLR off, READ_IMPLIES_EXEC", { unless: [0x0, 0x8, 0x20000, 0x20008, 0xffffffff] }),
];

// --- A small classic-BPF assembler ---------------------------------------------------------

const BPF_LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const BPF_JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const BPF_JSET_K = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const BPF_RET_K = 0x06; // BPF_RET | BPF_K

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;

// Offsets into struct seccomp_data { int nr; u32 arch; u64 ip; u64 args[6]; }, little-endian.
const OFF_NR = 0;
const OFF_ARCH = 4;
const OFF_ARG0_LO = 16;

/** One instruction; jt/jf name a label (absent: fall through to the next instruction). */
interface Insn {
  code: number;
  k: number;
  jt?: string;
  jf?: string;
}
type Line = Insn | { label: string };

const load = (offset: number): Insn => ({ code: BPF_LD_W_ABS, k: offset });
const ret = (value: number): Insn => ({ code: BPF_RET_K, k: value });
const jeq = (k: number, jt?: string, jf?: string): Insn => ({ code: BPF_JEQ_K, k, jt, jf });
const jset = (k: number, jt?: string, jf?: string): Insn => ({ code: BPF_JSET_K, k, jt, jf });
const errnoLabel = (errno: number): string => `errno_${errno}`;

/** Resolve labels into the 8-bit forward offsets classic BPF jumps take, and encode the program. */
export function assemble(lines: readonly Line[]): Buffer {
  const at = new Map<string, number>();
  const insns: Insn[] = [];
  for (const line of lines) {
    if ("label" in line) {
      if (at.has(line.label)) throw new Error(`BPF label ${line.label} defined twice`);
      at.set(line.label, insns.length);
    } else insns.push(line);
  }
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach((insn, i) => {
    const offset = (label: string | undefined): number => {
      if (label === undefined) return 0;
      const target = at.get(label);
      if (target === undefined) throw new Error(`BPF label ${label} is not defined`);
      const d = target - (i + 1);
      if (d < 0 || d > 255) throw new Error(`BPF jump to ${label} out of range (${d})`);
      return d;
    };
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(offset(insn.jt), i * 8 + 2);
    out.writeUInt8(offset(insn.jf), i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}

/** The filter for `arch` (default: this process's) as `struct sock_filter[]`, or null if unsupported. */
export function seccompProgram(arch: string = process.arch): Buffer | null {
  if (!Object.hasOwn(AUDIT_ARCH, arch)) return null;
  const a = arch as Arch;
  const rules = SYSCALL_RULES.filter((r) => r.nr[a] !== null);
  const lines: Line[] = [load(OFF_ARCH), jeq(AUDIT_ARCH[a], undefined, errnoLabel(EPERM)), load(OFF_NR)];
  if (a === "x64") lines.push(jset(0x40000000, errnoLabel(EPERM)));
  rules.forEach((r, i) => {
    const conditional = r.anyBit !== undefined || r.unless !== undefined;
    lines.push(jeq(r.nr[a]!, conditional ? `check_${i}` : errnoLabel(r.errno)));
  });
  lines.push(ret(SECCOMP_RET_ALLOW));
  // Argument checks come after the dispatch because classic BPF only jumps forward.
  rules.forEach((r, i) => {
    if (r.anyBit !== undefined) {
      lines.push({ label: `check_${i}` }, load(OFF_ARG0_LO), jset(r.anyBit, errnoLabel(r.errno), "allow"));
    } else if (r.unless !== undefined) {
      lines.push({ label: `check_${i}` }, load(OFF_ARG0_LO));
      for (const v of r.unless) lines.push(jeq(v, "allow"));
      lines.push(ret(SECCOMP_RET_ERRNO | r.errno));
    }
  });
  lines.push({ label: "allow" }, ret(SECCOMP_RET_ALLOW));
  for (const errno of new Set([EPERM, ...rules.map((r) => r.errno)])) {
    lines.push({ label: errnoLabel(errno) }, ret(SECCOMP_RET_ERRNO | errno));
  }
  return assemble(lines);
}

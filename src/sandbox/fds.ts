/**
 * File descriptors a child would inherit without being meant to. Node opens everything it owns
 * close-on-exec, so a descriptor without O_CLOEXEC was handed down by whoever started the
 * harness (a shell's `exec 57<file`, a CI runner, a supervisor): passed on, it would let a
 * sandboxed agent read that file, or walk `..` from a directory descriptor to the host's root.
 */
import fs from "node:fs";

const O_CLOEXEC = 0o2000000;

/** Descriptors above 2 that are open without close-on-exec in this process, read from /proc. */
export function inheritableFds(procDir = "/proc/self"): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(`${procDir}/fd`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2) continue;
    let info: string;
    try {
      info = fs.readFileSync(`${procDir}/fdinfo/${fd}`, "utf8");
    } catch {
      continue; // the descriptor used to list the directory, closed again by now
    }
    const m = /^flags:\s*([0-7]+)$/m.exec(info);
    if (m && (parseInt(m[1], 8) & O_CLOEXEC) === 0) out.push(fd);
  }
  return out.sort((a, b) => a - b);
}

let strays: number[] | null = null;
let devNull: number | null = null;

/**
 * The `stdio` entries from index 3 on that hand a child exactly `wanted` (as 3, 4, ...) and put
 * /dev/null over every stray inherited descriptor, which libuv would otherwise leave open across
 * exec. Strays can only come from the parent process, so they are looked up once.
 */
export function childStdio(wanted: number[]): (number | "ignore")[] {
  strays ??= inheritableFds();
  const extra: (number | "ignore")[] = [...wanted];
  const over = strays.filter((fd) => fd >= 3 + wanted.length);
  if (over.length === 0) return extra;
  devNull ??= fs.openSync("/dev/null", "r");
  const top = over[over.length - 1];
  for (let fd = 3 + wanted.length; fd <= top; fd++) extra.push(over.includes(fd) ? devNull : "ignore");
  return extra;
}

/**
 * The harness's own records of a run (agent output, LLM calls, journals, traces) are written into
 * a folder the sandbox never mounts, so nothing the agent does (a symlink in logs/, a deleted and
 * rewritten agent.log) can redirect or forge them. Once the agent's processes are gone they are
 * moved into the run's logs/ folder, where upstream's layout expects them.
 */
import fs from "node:fs";
import path from "node:path";
import { lstatOrNull } from "../io/untrusted.js";
import { moveAside } from "./submission.js";

/** Where a run's records live while it runs: `<run>/harness/records`, outside every mount. */
export function recordsDir(runDir: string): string {
  return path.join(runDir, "harness", "records");
}

/** Keep what the agent left at a record's name as `<name>.by-agent[-N]`. */
function setAside(p: string): void {
  moveAside(p, ".by-agent");
}

/** Put one record file at `dst`, a path known to hold nothing now. */
function placeFile(src: string, dst: string): void {
  try {
    fs.renameSync(src, dst);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
    // "wx" is O_CREAT|O_EXCL: it fails on anything already there, a symbolic link included.
    fs.writeFileSync(dst, fs.readFileSync(src), { flag: "wx" });
    fs.rmSync(src);
  }
}

/**
 * Move every record from `from` into `logsDir`, only after the sandbox is closed. An entry the
 * agent left at a record's name (a file, a link, a folder) is kept beside it as `<name>.by-agent`,
 * and a folder on the way that is not a real folder is set aside the same way before one is made.
 * Returns the paths (relative to `logsDir`) whose entries were set aside.
 */
export function publishRecords(from: string, logsDir: string): string[] {
  const displaced: string[] = [];
  const move = (srcDir: string, dstDir: string, rel: string): void => {
    for (const e of fs.readdirSync(srcDir, { withFileTypes: true })) {
      const src = path.join(srcDir, e.name);
      const dst = path.join(dstDir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      const there = lstatOrNull(dst);
      if (e.isDirectory()) {
        if (there === null || !there.isDirectory()) {
          if (there !== null) {
            setAside(dst);
            displaced.push(r);
          }
          fs.mkdirSync(dst);
        }
        move(src, dst, r);
      } else if (e.isFile()) {
        if (there !== null) {
          setAside(dst);
          displaced.push(r);
        }
        placeFile(src, dst);
      }
    }
  };
  const logs = lstatOrNull(logsDir);
  if (logs === null || !logs.isDirectory()) {
    if (logs !== null) {
      setAside(logsDir);
      displaced.push(".");
    }
    fs.mkdirSync(logsDir);
  }
  if (lstatOrNull(from)?.isDirectory()) move(from, logsDir, "");
  fs.rmSync(from, { recursive: true, force: true });
  return displaced;
}

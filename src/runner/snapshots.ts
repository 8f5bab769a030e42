/**
 * Copies of the agent's submission.csv taken during a run (for score-over-time curves). The file
 * is the agent's, so it is opened without following links and must be a regular file; copies are
 * sparse (runs of zero blocks are skipped, not written), an unchanged submission is hard-linked
 * to the previous copy instead of copied again, and the disk the copies take is counted, so the
 * run's disk cap covers them too.
 */
import fs from "node:fs";

const BLOCK = 4096;
const CHUNK = 1 << 20;

/** Identity of a file's content as the kernel sees it: rewritten content changes one of these. */
function identity(st: fs.BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

function allZero(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (buf[i] !== 0) return false;
  return true;
}

/** Copy `fd` (of `size` bytes) into a new file `dst`, leaving holes where whole blocks are zero. */
function copySparse(fd: number, size: number, dst: string): void {
  const out = fs.openSync(dst, "wx", 0o644);
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let pos = 0;
    while (pos < size) {
      const n = fs.readSync(fd, buf, 0, Math.min(CHUNK, size - pos), pos);
      if (n === 0) break; // shrank while copying
      for (let off = 0; off < n; off += BLOCK) {
        const end = Math.min(off + BLOCK, n);
        if (!allZero(buf, off, end)) fs.writeSync(out, buf, off, end - off, pos + off);
      }
      pos += n;
    }
    fs.ftruncateSync(out, pos);
  } finally {
    fs.closeSync(out);
  }
}

/** The snapshots of one run. */
export class Snapshots {
  /** Disk the copies take (allocated blocks), bytes. */
  bytes = 0;
  private last: { identity: string; file: string } | null = null;

  /**
   * Copy the regular file at `src` to `dst`, atomically (readers never see half a copy); false
   * when there is no regular file there. An unchanged file becomes a hard link to the previous copy.
   */
  take(src: string, dst: string): boolean {
    let fd: number;
    try {
      fd = fs.openSync(src, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    } catch {
      return false;
    }
    try {
      const st = fs.fstatSync(fd, { bigint: true });
      if (!st.isFile()) return false;
      const id = identity(st);
      const tmp = `${dst}.tmp`;
      fs.rmSync(tmp, { force: true });
      if (this.last?.identity === id) fs.linkSync(this.last.file, tmp);
      else {
        copySparse(fd, Number(st.size), tmp);
        this.bytes += fs.statSync(tmp).blocks * 512;
      }
      fs.renameSync(tmp, dst);
      this.last = { identity: id, file: dst };
      return true;
    } finally {
      fs.closeSync(fd);
    }
  }
}

/**
 * Atomic file writes: readers of `path` see either the old file or the complete new one,
 * never a half-written file, even if the process dies mid-write.
 */
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";

/** Data for {@link writeFileAtomic}: one piece, or many written in turn (for outputs too big for one string). */
export type AtomicData = string | Uint8Array | Iterable<string | Uint8Array>;

function writeAll(fd: number, piece: string | Uint8Array): void {
  if (typeof piece === "string") {
    if (piece.length === 0) return;
    piece = Buffer.from(piece, "utf8");
  }
  let off = 0;
  while (off < piece.length) off += writeSync(fd, piece, off, piece.length - off);
}

/** Write `data` to `path` atomically: temp file in the same directory, fsync, rename over `path`. */
export function writeFileAtomic(path: string, data: AtomicData): void {
  const dir = dirname(path);
  // Same directory so the rename never crosses a filesystem; random suffix so concurrent writers don't collide.
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(tmp, "wx", 0o666);
  try {
    if (typeof data === "string" || data instanceof Uint8Array) writeAll(fd, data);
    else for (const piece of data) writeAll(fd, piece);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // The original error matters more than a leftover temp file.
    }
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // As above.
    }
    throw err;
  }
  // Persist the rename itself; not every platform lets a directory be opened, so this is best effort.
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // Best effort only.
  }
}

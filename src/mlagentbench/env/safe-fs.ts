/**
 * File operations of the environment on the agent's workspace, which the agent's scripts may have
 * filled with anything between steps: links, FIFOs, sockets, hard links, huge or sparse files.
 * Reads are bounded and never open anything but a regular file (and never block); writes never go
 * through a link, never open a FIFO or device, and never modify a file that has other hard links
 * in place; new files can be handed to the agent's uid.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { openRegular, readRegularFile, type SkipReason } from "../../io/untrusted.js";

/** The uid and gid that files the environment creates are given. */
export interface Owner {
  uid: number;
  gid: number;
}

/** What a path is, without following a link at its last component. */
export type EntryKind = "missing" | "file" | "directory" | "link" | "special";

/** Why a file operation was refused; the caller words the observation. */
export class Refused extends Error {
  constructor(
    readonly kind: "missing" | "directory" | "link" | "special" | "too large" | "unreadable",
    readonly size = 0,
  ) {
    super(kind);
  }
}

const CHUNK = 1 << 20;
const O = fs.constants;

/** The kind of entry at `abs` (lstat: a link is reported as a link). */
export function entryKind(abs: string | Buffer): EntryKind {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch {
    return "missing";
  }
  if (st.isSymbolicLink()) return "link";
  if (st.isDirectory()) return "directory";
  return st.isFile() ? "file" : "special";
}

/** The refusal for a path the untrusted readers skipped. */
function refusal(abs: string, skipped: SkipReason): Refused {
  if (skipped === "missing") return new Refused("missing");
  if (skipped === "symbolic link") return new Refused("link");
  if (skipped === "not a regular file") {
    const kind = entryKind(abs);
    return new Refused(kind === "directory" ? "directory" : kind === "missing" ? "missing" : "special");
  }
  return new Refused("unreadable");
}

/** At most `maxBytes` of the regular file at `abs`; throws {@link Refused} for anything else. */
export function readBounded(abs: string, maxBytes: number): { bytes: Buffer; size: number; truncated: boolean } {
  const r = readRegularFile(abs, maxBytes);
  if ("skipped" in r) throw refusal(abs, r.skipped);
  return r;
}

/** An open regular file (closed by the caller), at most `maxBytes` long; throws {@link Refused} otherwise. */
export function openBounded(abs: string, maxBytes: number): { fd: number; size: number; mode: number } {
  const opened = openRegular(abs);
  if ("skipped" in opened) throw refusal(abs, opened.skipped);
  const st = fs.fstatSync(opened.fd);
  if (st.size > maxBytes) {
    fs.closeSync(opened.fd);
    throw new Refused("too large", st.size);
  }
  return { fd: opened.fd, size: st.size, mode: st.mode & 0o777 };
}

/** The longest prefix of `buf` that does not end inside a UTF-8 sequence. */
export function utf8Prefix(buf: Buffer): Buffer {
  let i = buf.length - 1;
  // Walk back over at most three continuation bytes to the lead byte of the last sequence.
  while (i >= 0 && i >= buf.length - 4 && (buf[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return buf;
  const lead = buf[i]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + need > buf.length ? buf.subarray(0, i) : buf;
}

/** A piece of a file being written: bytes, or `size` bytes read from an open descriptor. */
export type Piece = Buffer | { fd: number; size: number };

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}

function writePiece(fd: number, piece: Piece): void {
  if (Buffer.isBuffer(piece)) return writeAll(fd, piece);
  const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(piece.size, 1)));
  let pos = 0;
  while (pos < piece.size) {
    const n = fs.readSync(piece.fd, buf, 0, Math.min(buf.length, piece.size - pos), pos);
    if (n === 0) break;
    writeAll(fd, buf.subarray(0, n));
    pos += n;
  }
}

/** Give a new file or folder to `owner`; the environment cannot leave the agent unable to change what it wrote. */
function chownFd(fd: number, owner: Owner | undefined, keep: fs.Stats | null): void {
  if (owner) fs.fchownSync(fd, owner.uid, owner.gid);
  else if (keep) {
    try {
      fs.fchownSync(fd, keep.uid, keep.gid);
    } catch {
      // Only a privileged harness can hand a file back to another user; otherwise it stays ours.
    }
  }
}

function existingFile(abs: string): fs.Stats | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(abs);
  } catch {
    return null;
  }
  if (st.isSymbolicLink()) throw new Refused("link");
  if (st.isDirectory()) throw new Refused("directory");
  if (!st.isFile()) throw new Refused("special");
  return st;
}

/**
 * Create or replace the regular file at `abs` with `pieces`: a new file is written beside it and
 * renamed over it, so a link, a hard link or a FIFO at `abs` is never written through. An existing
 * entry that is not a regular file is refused. The new file keeps the old one's mode and owner
 * unless `mode` or `owner` is given.
 */
export function replaceFile(abs: string, pieces: Piece[], opts: { owner?: Owner; mode?: number } = {}): void {
  const old = existingFile(abs);
  const tmp = path.join(path.dirname(abs), `.mlab-write-${process.pid}-${randomBytes(6).toString("hex")}`);
  const fd = fs.openSync(tmp, O.O_WRONLY | O.O_CREAT | O.O_EXCL | O.O_NOFOLLOW, 0o666);
  try {
    for (const p of pieces) writePiece(fd, p);
    const mode = opts.mode ?? (old ? old.mode & 0o777 : undefined);
    if (mode !== undefined) fs.fchmodSync(fd, mode);
    chownFd(fd, opts.owner, old);
    fs.closeSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  try {
    fs.renameSync(tmp, abs);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Append `data` to the regular file at `abs`, creating it when missing. A file with other hard
 * links (which may lie outside the workspace) is copied and replaced instead of written in place.
 */
export function appendToFile(abs: string, data: Buffer, opts: { owner?: Owner; maxCopyBytes: number }): void {
  const old = existingFile(abs);
  if (!old) return replaceFile(abs, [data], { owner: opts.owner });
  const fd = fs.openSync(abs, O.O_WRONLY | O.O_APPEND | O.O_NOFOLLOW | O.O_NONBLOCK | O.O_NOCTTY);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Refused("special");
    if (st.nlink === 1) {
      writeAll(fd, data);
      if (opts.owner) fs.fchownSync(fd, opts.owner.uid, opts.owner.gid);
      return;
    }
  } finally {
    fs.closeSync(fd);
  }
  const src = openBounded(abs, opts.maxCopyBytes);
  try {
    replaceFile(abs, [src, data], { owner: opts.owner });
  } finally {
    fs.closeSync(src.fd);
  }
}

/**
 * The folder `root/parts...`, creating missing levels (given to `owner`); null when a level is a
 * link or not a folder, so nothing is ever created through a link.
 */
export function ensureRealDirs(root: string, parts: string[], owner?: Owner): string | null {
  let cur = root;
  for (const part of parts) {
    cur = path.join(cur, part);
    const kind = entryKind(cur);
    if (kind === "directory") continue;
    if (kind !== "missing") return null;
    try {
      fs.mkdirSync(cur);
      if (owner) fs.lchownSync(cur, owner.uid, owner.gid);
    } catch {
      return null;
    }
  }
  return cur;
}

/** Write a new file `abs` (which must not exist) in a folder known to be real; given to `owner`. */
export function createNewFile(abs: string, data: Buffer, owner?: Owner): void {
  const fd = fs.openSync(abs, O.O_WRONLY | O.O_CREAT | O.O_EXCL | O.O_NOFOLLOW, 0o666);
  try {
    writeAll(fd, data);
    if (owner) fs.fchownSync(fd, owner.uid, owner.gid);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(abs, { force: true });
    throw e;
  }
  fs.closeSync(fd);
}

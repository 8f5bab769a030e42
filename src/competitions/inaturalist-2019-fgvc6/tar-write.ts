/**
 * An uncompressed tar written block for block as Python's `tarfile` (PAX format, its default)
 * writes it, for members whose TarInfo keeps its defaults: regular file, mode 0644, uid and
 * gid 0, no user or group name, mtime 0. Member data is streamed from the source files, so
 * archives of many gigabytes never sit in memory.
 */
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { UserError } from "../../core/errors.js";
import { comparePyStr } from "../../pycompat/pystr.js";

/** One archive member: its name inside the tar and the file its bytes come from. */
export interface TarMember {
  name: string;
  source: string;
}

const BLOCK = 512;
// tarfile pads the finished archive to a multiple of 20 blocks, like `tar -b20`.
const RECORD = BLOCK * 20;
const NAME_LENGTH = 100;
const MAX_SIZE_FIELD = 8 ** 11;

/** tarfile's itn(): zero-padded octal of digits-1 characters, then NUL. */
function octal(n: number, digits: number): string {
  return n.toString(8).padStart(digits - 1, "0") + "\0";
}

/** tarfile's stn() with ASCII/"replace": each non-ASCII code point becomes "?", cut to `length` bytes. */
function asciiField(s: string, length: number): Buffer {
  const ascii = Array.from(s, (ch) => (ch.charCodeAt(0) < 0x80 ? ch : "?")).join("");
  const out = Buffer.alloc(length);
  out.write(ascii.slice(0, length), "latin1");
  return out;
}

/** One 512-byte ustar header with POSIX magic, as tarfile's _create_header builds it. */
function ustarHeader(name: string, mode: number, size: number, type: string): Buffer {
  const b = Buffer.alloc(BLOCK);
  asciiField(name, NAME_LENGTH).copy(b, 0);
  b.write(octal(mode, 8), 100, "latin1");
  b.write(octal(0, 8), 108, "latin1"); // uid
  b.write(octal(0, 8), 116, "latin1"); // gid
  b.write(octal(size, 12), 124, "latin1");
  b.write(octal(0, 12), 136, "latin1"); // mtime
  b.write("        ", 148, "latin1");
  b.write(type, 156, "latin1");
  b.write("ustar\x0000", 257, "latin1");
  // uname, gname, devmajor, devminor (no device: NUL-filled) and prefix stay zero bytes.
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += b[i];
  b.write(sum.toString(8).padStart(6, "0") + "\0", 148, "latin1");
  return b;
}

/** One "<length> <keyword>=<value>\n" record; the length counts its own digits. */
function paxRecord(keyword: string, value: string): Buffer {
  const body = Buffer.from(` ${keyword}=${value}\n`, "utf8");
  let p = 0;
  for (;;) {
    const n = body.length + String(p).length;
    if (n === p) break;
    p = n;
  }
  return Buffer.concat([Buffer.from(String(p), "latin1"), body]);
}

function padded(data: Buffer): Buffer {
  const rest = data.length % BLOCK;
  return rest === 0 ? data : Buffer.concat([data, Buffer.alloc(BLOCK - rest)]);
}

/** The header blocks of a regular file: an extended header first when ustar fields cannot hold it. */
export function memberHeader(name: string, size: number): Buffer {
  const records: Buffer[] = [];
  // tarfile compares the length in characters, once it knows the name is plain ASCII.
  if (!/^[\x00-\x7f]*$/.test(name) || name.length > NAME_LENGTH) records.push(paxRecord("path", name));
  const bigSize = size >= MAX_SIZE_FIELD;
  if (bigSize) records.push(paxRecord("size", String(size)));
  const main = ustarHeader(name, 0o644, bigSize ? 0 : size, "0");
  if (records.length === 0) return main;
  const pax = Buffer.concat(records);
  return Buffer.concat([ustarHeader("././@PaxHeader", 0, pax.length, "x"), padded(pax), main]);
}

function writeAll(fd: number, b: Uint8Array): void {
  let off = 0;
  while (off < b.length) off += fs.writeSync(fd, b, off, b.length - off);
}

function copyInto(fd: number, source: string, size: number, buf: Buffer): void {
  const src = fs.openSync(source, "r");
  try {
    let left = size;
    while (left > 0) {
      const n = fs.readSync(src, buf, 0, Math.min(buf.length, left), null);
      if (n === 0) throw new UserError(`${source} shrank while it was being archived`);
      writeAll(fd, buf.subarray(0, n));
      left -= n;
    }
  } finally {
    fs.closeSync(src);
  }
}

/**
 * Write `members` to `file` (through a temporary file, renamed at the end) in the given order:
 * header, data padded to whole blocks, then two zero blocks and padding to a 20-block record.
 */
export function writeTar(file: string, members: Iterable<TarMember>): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = fs.openSync(tmp, "wx");
  const buf = Buffer.alloc(1 << 20);
  let offset = 0;
  try {
    for (const m of members) {
      let size: number;
      try {
        size = fs.statSync(m.source).size;
      } catch {
        throw new UserError(`${m.source} is missing (needed for ${path.basename(file)} member "${m.name}")`);
      }
      const header = memberHeader(m.name, size);
      writeAll(fd, header);
      copyInto(fd, m.source, size, buf);
      const pad = (BLOCK - (size % BLOCK)) % BLOCK;
      writeAll(fd, Buffer.alloc(pad));
      offset += header.length + size + pad;
    }
    offset += 2 * BLOCK;
    writeAll(fd, Buffer.alloc(2 * BLOCK + ((RECORD - (offset % RECORD)) % RECORD)));
    fs.closeSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fs.renameSync(tmp, file);
}

/**
 * Python's os.walk order with sorted names, as member paths: a folder's own files first, then
 * each subfolder in turn, all by code point.
 */
export function compareWalkOrder(a: string, b: string): number {
  const pa = a.split("/");
  const pb = b.split("/");
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] === pb[i]) continue;
    const aFile = i === pa.length - 1;
    const bFile = i === pb.length - 1;
    if (aFile !== bFile) return aFile ? -1 : 1;
    return comparePyStr(pa[i], pb[i]);
  }
  return pa.length - pb.length;
}

/**
 * Gzipped tar archives (POSIX ustar with pax headers for long names and large sizes), written
 * and read as streams. The reader takes an archive as hostile input: only regular files and
 * folders, only relative paths without "..", bounded in entries, path length and total bytes, and
 * extracted into a fresh folder where no entry can land twice.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { once } from "node:events";
import zlib from "node:zlib";
import { UserError } from "../core/errors.js";

const BLOCK = 512;
/** The largest size an ustar header's 11 octal digits can hold; larger files get a pax size. */
const USTAR_MAX_SIZE = 0o77777777777;

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, "0") + "\0";
}

/** A pax record "<len> key=value\n", whose length counts itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len = String(len).length + Buffer.byteLength(body);
  return `${len}${body}`;
}

function header(name: string, size: number, type: "0" | "5" | "x", mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, "utf8");
  h.write(octal(type === "5" ? 0o755 : 0o644, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii");
  h.write(octal(0, 8), 116, "ascii");
  h.write(octal(size, 12), 124, "ascii");
  h.write(octal(mtime, 12), 136, "ascii");
  h.write("        ", 148, "ascii");
  h.write(type, 156, "ascii");
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + " ", 148, "ascii");
  return h;
}

/** Writes a .tar.gz to a file, one entry at a time. */
export class TarGzWriter {
  private readonly gzip = zlib.createGzip({ level: 6 });
  private readonly out: fs.WriteStream;
  private readonly done: Promise<void>;
  private readonly mtime = Math.floor(Date.now() / 1000);

  constructor(readonly file: string) {
    this.out = fs.createWriteStream(file, { flags: "wx", mode: 0o644 });
    this.gzip.pipe(this.out);
    this.done = new Promise((resolve, reject) => {
      this.out.on("close", resolve);
      this.out.on("error", reject);
      this.gzip.on("error", reject);
    });
  }

  private async write(b: Buffer): Promise<void> {
    if (!this.gzip.write(b)) await once(this.gzip, "drain");
  }

  private async head(name: string, size: number, type: "0" | "5"): Promise<void> {
    const plainName = Buffer.byteLength(name) <= 100 && /^[\x20-\x7e]*$/.test(name);
    if (!plainName || size > USTAR_MAX_SIZE) {
      const records = Buffer.from(paxRecord("path", name) + (size > USTAR_MAX_SIZE ? paxRecord("size", String(size)) : ""));
      await this.write(header("PaxHeader", records.length, "x", this.mtime));
      await this.write(records);
      await this.pad(records.length);
    }
    const shortName = plainName ? name : name.replace(/[^\x20-\x7e]/g, "_").slice(-100);
    await this.write(header(shortName, size > USTAR_MAX_SIZE ? 0 : size, type, this.mtime));
  }

  private async pad(size: number): Promise<void> {
    const rest = size % BLOCK;
    if (rest !== 0) await this.write(Buffer.alloc(BLOCK - rest));
  }

  /** Add a file from bytes in memory. */
  async addBuffer(name: string, data: Buffer): Promise<void> {
    await this.head(name, data.length, "0");
    await this.write(data);
    await this.pad(data.length);
  }

  /**
   * Add `size` bytes read from an open descriptor (the caller opened it without following links);
   * returns their sha256. A file that shrank while read is padded with zeros, so the archive stays
   * well-formed, and the hash is of what was written.
   */
  async addFd(name: string, fd: number, size: number): Promise<string> {
    await this.head(name, size, "0");
    const hash = createHash("sha256");
    let left = size;
    while (left > 0) {
      const buf = Buffer.alloc(Math.min(left, 1 << 20));
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      const chunk = n === 0 ? buf : buf.subarray(0, n);
      hash.update(chunk);
      await this.write(chunk);
      left -= chunk.length;
    }
    await this.pad(size);
    return hash.digest("hex");
  }

  /** End the archive (two zero blocks) and wait until the file is written. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    this.gzip.end();
    await this.done;
  }

  /** Abandon the archive: stop writing and remove the file. */
  async abort(): Promise<void> {
    this.gzip.destroy();
    this.out.destroy();
    if (!this.out.closed) await once(this.out, "close").catch(() => {});
    fs.rmSync(this.file, { force: true });
  }
}

/** Bounds of {@link extractTarGz}. */
export interface ExtractLimits {
  maxEntries: number;
  maxBytes: number;
  maxPathBytes: number;
}

/** One file extracted. */
export interface ExtractedFile {
  path: string;
  bytes: number;
  sha256: string;
}

function parseOctal(b: Buffer, where: string): number {
  const text = b.toString("ascii").replace(/\0.*$/s, "").trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw new UserError(`${where}: not an octal number in a tar header ("${text.slice(0, 20)}")`);
  return parseInt(text, 8);
}

function parsePax(data: Buffer, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) throw new UserError(`${where}: a malformed pax header`);
    const len = Number(data.subarray(at, space).toString("ascii"));
    if (!Number.isInteger(len) || len <= 0 || at + len > data.length) throw new UserError(`${where}: a malformed pax header`);
    const record = data.subarray(space + 1, at + len - 1).toString("utf8");
    const eq = record.indexOf("=");
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    at += len;
  }
  return out;
}

/** A safe relative path of an entry, or why it is refused. */
function checkedName(name: string, maxPathBytes: number): string | null {
  const n = name.replace(/\/+$/, "");
  if (n === "" || n.startsWith("/") || Buffer.byteLength(n) > maxPathBytes || n.includes("\0") || n.includes("\\")) return null;
  const parts = n.split("/");
  if (parts.some((p) => p === "" || p === "." || p === ".." || Buffer.byteLength(p) > 255)) return null;
  return n;
}

/**
 * Extract `archive` (.tar.gz) into the empty folder `dest`, refusing links, devices, absolute or
 * ".." paths, duplicate entries and anything past the limits; each file's sha256 is taken as it is
 * written. Errors name the archive and the entry.
 */
export async function extractTarGz(archive: string, dest: string, limits: ExtractLimits): Promise<ExtractedFile[]> {
  const files: ExtractedFile[] = [];
  let pending = Buffer.alloc(0);
  let entries = 0;
  let total = 0;
  let pax: Record<string, string> = {};
  let ended = false;
  // The entry being read: where its bytes go and how many are left (then the padding).
  // paxData collects a pax header ("x") or a GNU long name ("L"), which name the next entry.
  let current: { name: string; left: number; pad: number; fd: number | null; hash: ReturnType<typeof createHash> | null; size: number; paxData: Buffer[] | null; longName?: boolean } | null = null;
  const where = (name?: string) => (name ? `${archive}: entry "${name.slice(0, 200)}"` : archive);

  const startEntry = (h: Buffer) => {
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
    if (sum !== parseOctal(h.subarray(148, 156), archive)) throw new UserError(`${archive}: a tar header's checksum does not match (not a tar archive, or a damaged one)`);
    const type = String.fromCharCode(h[156] || 0x30);
    const prefix = h.subarray(345, 500).toString("utf8").replace(/\0.*$/s, "");
    const base = h.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    const rawName = pax.path ?? (prefix ? `${prefix}/${base}` : base);
    const size = pax.size !== undefined ? Number(pax.size) : parseOctal(h.subarray(124, 136), where(rawName));
    if (!Number.isSafeInteger(size) || size < 0) throw new UserError(`${where(rawName)}: a bad size`);
    pax = {};
    const padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (type === "x" || type === "L") {
      if (size > 1 << 20) throw new UserError(`${where()}: a ${type === "x" ? "pax header" : "long name"} of ${size} bytes (at most 1 MiB)`);
      current = { name: rawName, left: size, pad: padding, fd: null, hash: null, size, paxData: [], longName: type === "L" };
      return;
    }
    if (type === "g") {
      current = { name: rawName, left: size, pad: padding, fd: null, hash: null, size, paxData: null };
      return;
    }
    if (++entries > limits.maxEntries) throw new UserError(`${archive}: more than ${limits.maxEntries} entries`);
    const name = checkedName(rawName, limits.maxPathBytes);
    if (name === null) throw new UserError(`${where(rawName)}: not a safe relative path (absolute, with "..", or too long)`);
    if (type === "5") {
      fs.mkdirSync(path.join(dest, name), { recursive: true, mode: 0o700 });
      current = { name, left: size, pad: padding, fd: null, hash: null, size, paxData: null };
      return;
    }
    if (type !== "0" && type !== "7") throw new UserError(`${where(name)}: type "${type}" is not a regular file or folder (links and devices are refused)`);
    total += size;
    if (total > limits.maxBytes) throw new UserError(`${archive}: more than ${limits.maxBytes} bytes of files`);
    fs.mkdirSync(path.dirname(path.join(dest, name)), { recursive: true, mode: 0o700 });
    let fd: number;
    try {
      fd = fs.openSync(path.join(dest, name), fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UserError(`${where(name)}: ${code === "EEXIST" || code === "EISDIR" ? "appears twice in the archive" : (e as Error).message}`);
    }
    current = { name, left: size, pad: padding, fd, hash: createHash("sha256"), size, paxData: null };
  };

  const endEntry = () => {
    const c = current!;
    if (c.paxData !== null) {
      const data = Buffer.concat(c.paxData);
      pax = c.longName ? { path: data.toString("utf8").replace(/\0.*$/s, "") } : parsePax(data, where());
    }
    if (c.fd !== null) {
      fs.closeSync(c.fd);
      files.push({ path: c.name, bytes: c.size, sha256: c.hash!.digest("hex") });
    }
    current = null;
  };

  const consume = (chunk: Buffer) => {
    let buf = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    let at = 0;
    for (;;) {
      if (ended) return;
      if (current !== null) {
        const c: NonNullable<typeof current> = current;
        if (c.left > 0) {
          const n = Math.min(c.left, buf.length - at);
          if (n === 0) break;
          const part = buf.subarray(at, at + n);
          if (c.fd !== null) {
            fs.writeSync(c.fd, part);
            c.hash!.update(part);
          } else if (c.paxData !== null) c.paxData.push(Buffer.from(part));
          c.left -= n;
          at += n;
          continue;
        }
        if (c.pad > 0) {
          const n = Math.min(c.pad, buf.length - at);
          if (n === 0) break;
          c.pad -= n;
          at += n;
          continue;
        }
        endEntry();
        continue;
      }
      if (buf.length - at < BLOCK) break;
      const h = buf.subarray(at, at + BLOCK);
      at += BLOCK;
      if (h.every((b) => b === 0)) {
        ended = true;
        return;
      }
      startEntry(h);
    }
    pending = Buffer.from(buf.subarray(at));
    buf = pending;
  };

  const input = fs.createReadStream(archive);
  const gunzip = zlib.createGunzip();
  try {
    const stream = input.pipe(gunzip);
    input.on("error", (e) => gunzip.destroy(e));
    for await (const chunk of stream) {
      consume(chunk as Buffer);
      if (ended) break;
    }
  } catch (e) {
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new UserError(`${archive} does not exist`);
    throw new UserError(`${archive} is not a readable .tar.gz (${(e as Error).message})`);
  } finally {
    const c = current as { fd: number | null } | null;
    if (c?.fd != null) fs.closeSync(c.fd);
    input.destroy();
    gunzip.destroy();
  }
  if (!ended && (current !== null || pending.length > 0 || entries === 0)) throw new UserError(`${archive}: the archive ends in the middle of an entry (cut short?)`);
  return files;
}

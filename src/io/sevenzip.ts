/**
 * 7z archives without the 7z program: reading the common kinds (members stored, LZMA- or
 * LZMA2-compressed, plain or compressed headers) and writing stored ones.
 *
 * Upstream's preparers read and write .7z with py7zr. Its LZMA2 output cannot be reproduced
 * byte for byte without liblzma's encoder, so archives written here store their members
 * uncompressed: any 7z tool unpacks them to the same bytes, and the layout is fixed (no times,
 * no attributes), so the same members always give the same archive.
 *
 * Format reference: 7-Zip's 7zFormat.txt. Numbers in headers use 7z's variable-length
 * encoding: the count of leading 1 bits in the first byte says how many little-endian bytes follow.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { UserError } from "../core/errors.js";
import { safeMemberPath } from "./extract.js";
import { ByteReader, lzma2Decode, lzmaDecode } from "./lzma.js";

const SIGNATURE = Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]);
const START_HEADER_SIZE = 32;

const enum Id {
  End = 0x00,
  Header = 0x01,
  ArchiveProperties = 0x02,
  AdditionalStreamsInfo = 0x03,
  MainStreamsInfo = 0x04,
  FilesInfo = 0x05,
  PackInfo = 0x06,
  UnpackInfo = 0x07,
  SubStreamsInfo = 0x08,
  Size = 0x09,
  Crc = 0x0a,
  Folder = 0x0b,
  CodersUnpackSize = 0x0c,
  NumUnpackStream = 0x0d,
  EmptyStream = 0x0e,
  EmptyFile = 0x0f,
  Name = 0x11,
  EncodedHeader = 0x17,
}

/** Raised for archives that are valid 7z but use a coder this module lacks (callers may fall back to the 7z program). */
export class UnsupportedSevenZipError extends UserError {
  override name = "UnsupportedSevenZipError";
}

// ---------------------------------------------------------------------------------------------
// Reading.

interface Coder {
  id: string;
  props: Uint8Array;
  numIn: number;
  numOut: number;
}

interface Folder {
  coders: Coder[];
  unpackSizes: number[];
  crc: number | null;
}

interface StreamsInfo {
  packPos: number;
  packSizes: number[];
  folders: Folder[];
  /** Per folder, the sizes of the files its output holds, in order. */
  substreamSizes: number[][];
  /** Per file stream (all folders, in order), its CRC when known. */
  substreamCrcs: (number | null)[];
}

/** A member of a 7z archive as its header describes it. */
export interface SevenZipEntry {
  name: string;
  isDirectory: boolean;
  /** Whether its bytes live in a folder's output (false for directories and empty files). */
  hasStream: boolean;
  size: number;
}

class HeaderReader {
  pos = 0;

  constructor(
    readonly data: Uint8Array,
    readonly where: string,
  ) {}

  fail(what: string): never {
    throw new UserError(`${this.where}: damaged 7z header (${what} at byte ${this.pos})`);
  }

  byte(): number {
    if (this.pos >= this.data.length) this.fail("header ends early");
    return this.data[this.pos++];
  }

  bytes(n: number): Uint8Array {
    if (this.pos + n > this.data.length) this.fail("header ends early");
    const out = this.data.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  number(): number {
    const first = this.byte();
    let mask = 0x80;
    let value = 0;
    for (let i = 0; i < 8; i++) {
      if ((first & mask) === 0) {
        value += (first & (mask - 1)) * 2 ** (8 * i);
        if (!Number.isSafeInteger(value)) this.fail("number too large");
        return value;
      }
      value += this.byte() * 2 ** (8 * i);
      mask >>>= 1;
    }
    if (!Number.isSafeInteger(value)) this.fail("number too large");
    return value;
  }

  uint32(): number {
    const b = this.bytes(4);
    return (b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24)) >>> 0;
  }

  bits(n: number): boolean[] {
    const out: boolean[] = [];
    let mask = 0;
    let cur = 0;
    for (let i = 0; i < n; i++) {
      if (mask === 0) {
        cur = this.byte();
        mask = 0x80;
      }
      out.push((cur & mask) !== 0);
      mask >>>= 1;
    }
    return out;
  }

  /** A defined-flags vector: one byte saying "all defined", else a bit field. */
  defined(n: number): boolean[] {
    return this.byte() !== 0 ? new Array<boolean>(n).fill(true) : this.bits(n);
  }

  digests(n: number): (number | null)[] {
    return this.defined(n).map((d) => (d ? this.uint32() : null));
  }

  expect(id: number, what: string): void {
    if (this.byte() !== id) this.fail(`expected ${what}`);
  }
}

function readFolder(h: HeaderReader): Folder {
  const numCoders = h.number();
  const coders: Coder[] = [];
  for (let i = 0; i < numCoders; i++) {
    const flags = h.byte();
    if (flags & 0x80) throw new UnsupportedSevenZipError(`${h.where}: uses alternative coder methods, which 7z itself no longer writes`);
    const id = Buffer.from(h.bytes(flags & 0x0f)).toString("hex");
    const complex = (flags & 0x10) !== 0;
    const numIn = complex ? h.number() : 1;
    const numOut = complex ? h.number() : 1;
    const props = flags & 0x20 ? h.bytes(h.number()) : new Uint8Array(0);
    coders.push({ id, props, numIn, numOut });
  }
  const totalOut = coders.reduce((a, c) => a + c.numOut, 0);
  const totalIn = coders.reduce((a, c) => a + c.numIn, 0);
  for (let i = 0; i < totalOut - 1; i++) {
    h.number();
    h.number();
  }
  const numPacked = totalIn - (totalOut - 1);
  if (numPacked > 1) for (let i = 0; i < numPacked; i++) h.number();
  return { coders, unpackSizes: [], crc: null };
}

function readStreamsInfo(h: HeaderReader): StreamsInfo {
  const info: StreamsInfo = { packPos: 0, packSizes: [], folders: [], substreamSizes: [], substreamCrcs: [] };
  let id = h.byte();
  if (id === Id.PackInfo) {
    info.packPos = h.number();
    const n = h.number();
    for (;;) {
      id = h.byte();
      if (id === Id.End) break;
      if (id === Id.Size) for (let i = 0; i < n; i++) info.packSizes.push(h.number());
      else if (id === Id.Crc) h.digests(n);
      else h.fail(`unexpected property ${id} in pack info`);
    }
    id = h.byte();
  }
  if (id === Id.UnpackInfo) {
    h.expect(Id.Folder, "folder list");
    const n = h.number();
    if (h.byte() !== 0) throw new UnsupportedSevenZipError(`${h.where}: folder list stored outside the header`);
    for (let i = 0; i < n; i++) info.folders.push(readFolder(h));
    h.expect(Id.CodersUnpackSize, "unpack sizes");
    for (const f of info.folders) {
      const outs = f.coders.reduce((a, c) => a + c.numOut, 0);
      for (let i = 0; i < outs; i++) f.unpackSizes.push(h.number());
    }
    for (;;) {
      id = h.byte();
      if (id === Id.End) break;
      if (id === Id.Crc) h.digests(n).forEach((c, i) => (info.folders[i].crc = c));
      else h.fail(`unexpected property ${id} in unpack info`);
    }
    id = h.byte();
  }
  // Without substream info each folder holds one file with the folder's CRC.
  let counts = info.folders.map(() => 1);
  let sizesGiven = false;
  if (id === Id.SubStreamsInfo) {
    id = h.byte();
    if (id === Id.NumUnpackStream) {
      counts = info.folders.map(() => h.number());
      id = h.byte();
    }
    if (id === Id.Size) {
      sizesGiven = true;
      info.substreamSizes = info.folders.map((f, i) => {
        if (counts[i] === 0) return [];
        const sizes: number[] = [];
        let sum = 0;
        for (let k = 1; k < counts[i]; k++) {
          const s = h.number();
          sizes.push(s);
          sum += s;
        }
        sizes.push(folderSize(f) - sum);
        return sizes;
      });
      id = h.byte();
    }
    if (!sizesGiven) info.substreamSizes = info.folders.map((f, i) => (counts[i] === 1 ? [folderSize(f)] : counts[i] === 0 ? [] : h.fail("missing substream sizes")));
    // CRCs are listed only for streams whose CRC the folder does not already give.
    const unknown = info.folders.reduce((a, f, i) => a + (counts[i] === 1 && f.crc !== null ? 0 : counts[i]), 0);
    let listed: (number | null)[] = [];
    while (id !== Id.End) {
      if (id === Id.Crc) listed = h.digests(unknown);
      else h.fail(`unexpected property ${id} in substream info`);
      id = h.byte();
    }
    let k = 0;
    info.folders.forEach((f, i) => {
      if (counts[i] === 1 && f.crc !== null) info.substreamCrcs.push(f.crc);
      else for (let j = 0; j < counts[i]; j++) info.substreamCrcs.push(listed[k++] ?? null);
    });
    id = h.byte();
  } else {
    info.substreamSizes = info.folders.map((f) => [folderSize(f)]);
    info.substreamCrcs = info.folders.map((f) => f.crc);
  }
  if (id !== Id.End) h.fail(`unexpected property ${id} in streams info`);
  return info;
}

/** A folder's final output size: the output of its last coder that feeds no other (one coder here). */
function folderSize(f: Folder): number {
  return f.unpackSizes[f.unpackSizes.length - 1];
}

function utf16Names(data: Uint8Array, n: number, where: string): string[] {
  const names: string[] = [];
  let start = 0;
  for (let i = 0; i + 1 < data.length && names.length < n; i += 2) {
    if (data[i] === 0 && data[i + 1] === 0) {
      names.push(Buffer.from(data.subarray(start, i)).toString("utf16le"));
      start = i + 2;
    }
  }
  if (names.length !== n) throw new UserError(`${where}: damaged 7z header (${names.length} names for ${n} files)`);
  return names;
}

function readFilesInfo(h: HeaderReader, streamSizes: number[]): SevenZipEntry[] {
  const n = h.number();
  let emptyStream = new Array<boolean>(n).fill(false);
  let emptyFile: boolean[] = [];
  let names: string[] = [];
  for (;;) {
    const id = h.byte();
    if (id === Id.End) break;
    const size = h.number();
    const body = new HeaderReader(h.bytes(size), h.where);
    if (id === Id.EmptyStream) emptyStream = body.bits(n);
    else if (id === Id.EmptyFile) emptyFile = body.bits(emptyStream.filter(Boolean).length);
    else if (id === Id.Name) {
      if (body.byte() !== 0) throw new UnsupportedSevenZipError(`${h.where}: file names stored outside the header`);
      names = utf16Names(body.data.subarray(1), n, h.where);
    }
    // Times, attributes, padding and the rest say nothing about the bytes: skipped.
  }
  if (names.length !== n) throw new UserError(`${h.where}: damaged 7z header (no file names)`);
  const entries: SevenZipEntry[] = [];
  let emptyIndex = 0;
  let streamIndex = 0;
  for (let i = 0; i < n; i++) {
    if (emptyStream[i]) {
      // An entry without data is an empty file when flagged so, otherwise a directory.
      const isFile = emptyFile[emptyIndex++] === true;
      entries.push({ name: names[i], isDirectory: !isFile, hasStream: false, size: 0 });
    } else {
      if (streamIndex >= streamSizes.length) throw new UserError(`${h.where}: damaged 7z header (more files than streams)`);
      entries.push({ name: names[i], isDirectory: false, hasStream: true, size: streamSizes[streamIndex++] });
    }
  }
  return entries;
}

const CODER_NAMES: Record<string, string> = {
  "03030103": "BCJ (x86)",
  "030401": "PPMd",
  "040108": "Deflate",
  "040202": "BZip2",
  "06f10701": "AES encryption",
};

const SUPPORTED = new Set(["00", "030101", "21"]);

/** Refuse a folder this module cannot decode: coder chains (filters, encryption) and other codecs. */
function checkSupported(folder: Folder, where: string): void {
  const c = folder.coders;
  if (c.length === 1 && c[0].numIn === 1 && c[0].numOut === 1 && SUPPORTED.has(c[0].id)) return;
  const names = c.map((k) => CODER_NAMES[k.id] ?? `0x${k.id}`).join(" + ");
  throw new UnsupportedSevenZipError(`${where}: uses ${names}; only stored, LZMA and LZMA2 members are read without the 7z program`);
}

/** Run a folder's single coder over its packed stream, handing the output to `sink`. */
function decodeFolder(fd: number, start: number, packSize: number, folder: Folder, sink: (chunk: Uint8Array) => void, where: string): void {
  checkSupported(folder, where);
  const coder = folder.coders[0];
  const size = folderSize(folder);
  const input = new ByteReader(where, { fd, start, length: packSize });
  if (coder.id === "21") lzma2Decode(coder.props, input, size, sink, where);
  else if (coder.id === "030101") lzmaDecode(coder.props, input, size, sink, where);
  else {
    if (packSize !== size) throw new UserError(`${where}: damaged 7z header (stored stream of ${packSize} bytes said to hold ${size})`);
    const buf = Buffer.alloc(Math.min(1 << 20, Math.max(size, 1)));
    let done = 0;
    while (done < size) {
      const n = fs.readSync(fd, buf, 0, Math.min(buf.length, size - done), start + done);
      if (n === 0) throw new UserError(`${where}: the file ends before its stored data does`);
      sink(buf.subarray(0, n));
      done += n;
    }
  }
}

function packStart(info: StreamsInfo, folderIndex: number): number {
  let start = START_HEADER_SIZE + info.packPos;
  for (let i = 0; i < folderIndex; i++) start += info.packSizes[i];
  return start;
}

/** The archive's header, decompressing it first when the archive stores it compressed. */
function readHeader(fd: number, file: string): HeaderReader {
  const start = Buffer.alloc(START_HEADER_SIZE);
  if (fs.readSync(fd, start, 0, START_HEADER_SIZE, 0) !== START_HEADER_SIZE || !start.subarray(0, 6).equals(SIGNATURE)) {
    throw new UserError(`${file} is not a 7z archive (no 7z signature)`);
  }
  if (zlib.crc32(start.subarray(12, 32)) !== start.readUInt32LE(8)) throw new UserError(`${file}: damaged 7z start header (checksum mismatch)`);
  const offset = Number(start.readBigUInt64LE(12));
  const size = Number(start.readBigUInt64LE(20));
  const data = Buffer.alloc(size);
  if (size > 0 && fs.readSync(fd, data, 0, size, START_HEADER_SIZE + offset) !== size) throw new UserError(`${file}: truncated 7z archive (header missing)`);
  if (zlib.crc32(data) !== start.readUInt32LE(28)) throw new UserError(`${file}: damaged 7z header (checksum mismatch)`);
  let h = new HeaderReader(data, file);
  while (h.data.length > 0 && h.data[0] === Id.EncodedHeader) {
    h.pos = 1;
    const info = readStreamsInfo(h);
    const parts: Uint8Array[] = [];
    decodeFolder(fd, packStart(info, 0), info.packSizes[0], info.folders[0], (c) => parts.push(Buffer.from(c)), `${file} (header)`);
    h = new HeaderReader(Buffer.concat(parts), file);
  }
  return h;
}

function parseHeader(h: HeaderReader): { info: StreamsInfo | null; entries: SevenZipEntry[] } {
  if (h.data.length === 0) return { info: null, entries: [] };
  h.expect(Id.Header, "header");
  let id = h.byte();
  if (id === Id.ArchiveProperties) {
    for (;;) {
      const prop = h.byte();
      if (prop === Id.End) break;
      h.bytes(h.number());
    }
    id = h.byte();
  }
  if (id === Id.AdditionalStreamsInfo) throw new UnsupportedSevenZipError(`${h.where}: uses additional header streams`);
  let info: StreamsInfo | null = null;
  if (id === Id.MainStreamsInfo) {
    info = readStreamsInfo(h);
    id = h.byte();
  }
  let entries: SevenZipEntry[] = [];
  if (id === Id.FilesInfo) {
    entries = readFilesInfo(h, info ? info.substreamSizes.flat() : []);
    id = h.byte();
  }
  if (id !== Id.End) h.fail(`unexpected property ${id} in header`);
  return { info, entries };
}

/** The members of a 7z archive, in archive order. */
export function listSevenZip(file: string): SevenZipEntry[] {
  const fd = openArchive(file);
  try {
    return parseHeader(readHeader(fd, file)).entries;
  } finally {
    fs.closeSync(fd);
  }
}

function openArchive(file: string): number {
  try {
    return fs.openSync(file, "r");
  } catch (e) {
    throw new UserError(`Cannot read ${file}: ${(e as Error).message}`);
  }
}

/** Splits a folder's output across the files it holds, writing each and checking its CRC. */
class FileSplitter {
  private index = 0;
  private fd = -1;
  private left = 0;
  private crc = 0;

  constructor(
    private readonly targets: { path: string; size: number; crc: number | null; name: string }[],
    private readonly where: string,
  ) {
    this.open();
  }

  private open(): void {
    while (this.index < this.targets.length) {
      const t = this.targets[this.index];
      fs.mkdirSync(path.dirname(t.path), { recursive: true });
      this.fd = fs.openSync(t.path, "w");
      this.left = t.size;
      this.crc = 0;
      if (this.left > 0) return;
      this.close();
    }
  }

  private close(): void {
    const t = this.targets[this.index];
    fs.closeSync(this.fd);
    this.fd = -1;
    if (t.crc !== null && t.crc !== this.crc) throw new UserError(`${this.where}: member "${t.name}" is damaged (CRC mismatch)`);
    this.index++;
  }

  write(chunk: Uint8Array): void {
    let off = 0;
    while (off < chunk.length) {
      if (this.fd < 0) throw new UserError(`${this.where}: a folder holds more data than its files`);
      const n = Math.min(this.left, chunk.length - off);
      const part = chunk.subarray(off, off + n);
      let w = 0;
      while (w < n) w += fs.writeSync(this.fd, part, w, n - w);
      this.crc = zlib.crc32(part, this.crc);
      this.left -= n;
      off += n;
      if (this.left === 0) {
        this.close();
        this.open();
      }
    }
  }

  finish(): void {
    if (this.index < this.targets.length) throw new UserError(`${this.where}: a folder holds less data than its files`);
  }
}

/**
 * Unpack a 7z archive into `dest` (created if needed) and return the files it produced, relative
 * and "/"-separated. Throws {@link UnsupportedSevenZipError} for coders other than stored, LZMA
 * and LZMA2 (and for encryption), before writing anything.
 */
export function extractSevenZip(file: string, dest: string): string[] {
  const fd = openArchive(file);
  try {
    const { info, entries } = parseHeader(readHeader(fd, file));
    const rels = entries.map((e) => safeMemberPath(e.name, file));
    // Checked up front so an unsupported archive leaves nothing half unpacked.
    for (const f of info?.folders ?? []) checkSupported(f, file);
    fs.mkdirSync(dest, { recursive: true });
    const out: string[] = [];
    entries.forEach((e, i) => {
      const target = path.join(dest, rels[i]);
      if (e.isDirectory) fs.mkdirSync(target, { recursive: true });
      else if (!e.hasStream) {
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, "");
        out.push(rels[i]);
      }
    });
    if (info) {
      const streamed = entries.map((e, i) => ({ e, rel: rels[i] })).filter((x) => x.e.hasStream);
      let k = 0;
      info.folders.forEach((folder, fi) => {
        const targets = info.substreamSizes[fi].map((size) => {
          const { e, rel } = streamed[k];
          const crc = info.substreamCrcs[k++] ?? null;
          return { path: path.join(dest, rel), size, crc, name: e.name };
        });
        const splitter = new FileSplitter(targets, file);
        decodeFolder(fd, packStart(info, fi), info.packSizes[fi], folder, (c) => splitter.write(c), file);
        splitter.finish();
        out.push(...targets.map((t) => path.relative(dest, t.path).split(path.sep).join("/")));
      });
    }
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

// ---------------------------------------------------------------------------------------------
// Writing.

/** 7z's variable-length number: the first byte's leading 1 bits count the little-endian bytes after it. */
export function encodeSevenZipNumber(value: number): number[] {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`7z number out of range: ${value}`);
  let v = BigInt(value);
  let first = 0;
  let mask = 0x80;
  let i = 0;
  for (; i < 8; i++) {
    if (v < 1n << BigInt(7 * (i + 1))) {
      first |= Number(v >> BigInt(8 * i));
      break;
    }
    first |= mask;
    mask >>>= 1;
  }
  const out = [first];
  for (; i > 0; i--) {
    out.push(Number(v & 0xffn));
    v >>= 8n;
  }
  return out;
}

/** One member to store: the file on disk and its name inside the archive ("/"-separated). */
export interface SevenZipMember {
  source: string;
  name: string;
}

function bitField(flags: boolean[]): number[] {
  const out: number[] = [];
  flags.forEach((f, i) => {
    if (i % 8 === 0) out.push(0);
    if (f) out[out.length - 1] |= 0x80 >>> i % 8;
  });
  return out;
}

/** The header of a stored archive: one Copy folder holding every non-empty member, CRCs per member, names. */
function storedHeader(members: { name: string; size: number; crc: number }[]): Buffer {
  const num = encodeSevenZipNumber;
  const h: number[] = [Id.Header];
  const streams = members.filter((m) => m.size > 0);
  if (streams.length > 0) {
    const total = streams.reduce((a, m) => a + m.size, 0);
    h.push(Id.MainStreamsInfo);
    h.push(Id.PackInfo, ...num(0), ...num(1), Id.Size, ...num(total), Id.End);
    // One folder, one coder: flags 0x01 (a 1-byte id, simple, no properties), id 0x00 (Copy).
    h.push(Id.UnpackInfo, Id.Folder, ...num(1), 0, ...num(1), 0x01, 0x00, Id.CodersUnpackSize, ...num(total), Id.End);
    h.push(Id.SubStreamsInfo);
    if (streams.length > 1) {
      h.push(Id.NumUnpackStream, ...num(streams.length), Id.Size);
      for (const m of streams.slice(0, -1)) h.push(...num(m.size));
    }
    h.push(Id.Crc, 1);
    for (const m of streams) h.push(m.crc & 0xff, (m.crc >>> 8) & 0xff, (m.crc >>> 16) & 0xff, m.crc >>> 24);
    h.push(Id.End, Id.End);
  }
  h.push(Id.FilesInfo, ...num(members.length));
  if (streams.length < members.length) {
    const empty = members.map((m) => m.size === 0);
    const emptyStream = bitField(empty);
    const emptyFile = bitField(empty.filter(Boolean).map(() => true));
    h.push(Id.EmptyStream, ...num(emptyStream.length), ...emptyStream);
    h.push(Id.EmptyFile, ...num(emptyFile.length), ...emptyFile);
  }
  const names = Buffer.concat(members.map((m) => Buffer.from(`${m.name}\0`, "utf16le")));
  h.push(Id.Name, ...num(names.length + 1), 0, ...names);
  h.push(Id.End, Id.End);
  return Buffer.from(h);
}

/**
 * Write `members` into the 7z archive `archive`, stored (uncompressed), in the given order.
 * Streams each file from disk; the archive appears under its final name only once complete.
 */
export function writeStoredSevenZip(archive: string, members: SevenZipMember[]): void {
  const seen = new Set<string>();
  for (const m of members) {
    if (seen.has(m.name)) throw new UserError(`${archive}: member "${m.name}" given twice`);
    seen.add(m.name);
    if (!fs.existsSync(m.source) || !fs.statSync(m.source).isFile()) throw new UserError(`${archive}: cannot add ${m.source}: not a regular file`);
  }
  const part = `${archive}.partial`;
  const fd = fs.openSync(part, "w");
  try {
    let pos = START_HEADER_SIZE;
    const described: { name: string; size: number; crc: number }[] = [];
    const buf = Buffer.alloc(1 << 20);
    for (const m of members) {
      const src = fs.openSync(m.source, "r");
      let crc = 0;
      let size = 0;
      try {
        for (;;) {
          const n = fs.readSync(src, buf, 0, buf.length, null);
          if (n === 0) break;
          crc = zlib.crc32(buf.subarray(0, n), crc);
          let w = 0;
          while (w < n) w += fs.writeSync(fd, buf, w, n - w, pos + w);
          pos += n;
          size += n;
        }
      } finally {
        fs.closeSync(src);
      }
      described.push({ name: m.name, size, crc });
    }
    const header = storedHeader(described);
    fs.writeSync(fd, header, 0, header.length, pos);
    const start = Buffer.alloc(START_HEADER_SIZE);
    SIGNATURE.copy(start, 0);
    start[6] = 0;
    start[7] = 4;
    start.writeBigUInt64LE(BigInt(pos - START_HEADER_SIZE), 12);
    start.writeBigUInt64LE(BigInt(header.length), 20);
    start.writeUInt32LE(zlib.crc32(header), 28);
    start.writeUInt32LE(zlib.crc32(start.subarray(12, 32)), 8);
    fs.writeSync(fd, start, 0, START_HEADER_SIZE, 0);
    fs.closeSync(fd);
    fs.renameSync(part, archive);
  } catch (e) {
    try {
      fs.closeSync(fd);
    } catch {
      // Already closed; the original error matters more.
    }
    fs.rmSync(part, { force: true });
    throw e;
  }
}

/**
 * LZMA and LZMA2 decompression, as 7-Zip archives use them (Kaggle ships some data sets as .7z,
 * and Node has no LZMA of its own). Streams in both directions: input is pulled from a
 * {@link ByteReader} a block at a time, output leaves through a sliding window of the
 * dictionary's size, so a file of many gigabytes never has to fit in memory.
 *
 * The decoder follows the LZMA specification (Igor Pavlov's LzmaSpec): a range decoder over
 * adaptive bit probabilities, literals coded with the previous byte as context, matches as
 * (length, distance) pairs with four recent distances kept for "rep" matches.
 */
import { readSync } from "node:fs";
import { UserError } from "../core/errors.js";

/** Bytes pulled one at a time from memory or from a byte range of an open file. */
export class ByteReader {
  private readonly buf: Uint8Array;
  private pos = 0;
  private end: number;
  private readonly fd: number;
  private filePos: number;
  private left: number;
  /** Bytes of the input before the current buffer. */
  private before = 0;

  /** From `data` in memory, or from `length` bytes of file descriptor `fd` starting at `start`. */
  constructor(
    private readonly where: string,
    source: Uint8Array | { fd: number; start: number; length: number },
  ) {
    if (source instanceof Uint8Array) {
      this.buf = source;
      this.end = source.length;
      this.fd = -1;
      this.filePos = 0;
      this.left = 0;
    } else {
      this.buf = Buffer.alloc(1 << 16);
      this.end = 0;
      this.fd = source.fd;
      this.filePos = source.start;
      this.left = source.length;
    }
  }

  /** The next byte; running out is an error naming the input. */
  byte(): number {
    if (this.pos === this.end) this.refill();
    return this.buf[this.pos++];
  }

  /** Bytes consumed so far. */
  get offset(): number {
    return this.before + this.pos;
  }

  private refill(): void {
    if (this.fd < 0 || this.left === 0) throw new UserError(`${this.where}: compressed data ends too early`);
    const n = readSync(this.fd, this.buf, 0, Math.min(this.buf.length, this.left), this.filePos);
    if (n === 0) throw new UserError(`${this.where}: the file ends before its compressed data does`);
    this.before += this.end;
    this.filePos += n;
    this.left -= n;
    this.end = n;
    this.pos = 0;
  }

  /** Skip forward to `offset` bytes from the start. */
  skipTo(offset: number): void {
    if (offset < this.offset) throw new UserError(`${this.where}: damaged LZMA2 chunk sizes`);
    while (this.offset < offset) this.byte();
  }
}

/** The decoder's dictionary: a ring of the last `size` bytes out, emptied into `sink` as it fills. */
class OutWindow {
  readonly buf: Uint8Array;
  pos = 0;
  private flushed = 0;
  /** Bytes written since the last dictionary reset: positions and match reach count from there. */
  total = 0;
  /** Bytes written since the stream began. */
  produced = 0;

  constructor(
    size: number,
    private readonly sink: (chunk: Uint8Array) => void,
  ) {
    this.buf = new Uint8Array(Math.max(size, 1));
  }

  put(b: number): void {
    this.buf[this.pos++] = b;
    this.total++;
    this.produced++;
    if (this.pos === this.buf.length) this.wrap();
  }

  private wrap(): void {
    this.flush();
    this.pos = 0;
    this.flushed = 0;
  }

  /** The byte `dist` positions back (1 is the last byte written). */
  get(dist: number): number {
    const i = this.pos - dist;
    return this.buf[i >= 0 ? i : i + this.buf.length];
  }

  copy(dist: number, len: number): void {
    const size = this.buf.length;
    let from = this.pos - dist;
    if (from < 0) from += size;
    for (let k = 0; k < len; k++) {
      this.buf[this.pos++] = this.buf[from++];
      if (from === size) from = 0;
      if (this.pos === size) this.wrap();
    }
    this.total += len;
    this.produced += len;
  }

  /** LZMA2's dictionary reset: earlier bytes are out of reach and positions restart at 0. */
  resetDict(): void {
    this.total = 0;
  }

  flush(): void {
    if (this.pos > this.flushed) this.sink(this.buf.subarray(this.flushed, this.pos));
    this.flushed = this.pos;
  }
}

const TOP = 1 << 24;
const PROB_INIT = 1024;

class RangeDecoder {
  range = 0;
  code = 0;

  constructor(readonly input: ByteReader) {}

  init(where: string): void {
    if (this.input.byte() !== 0) throw new UserError(`${where}: damaged LZMA data (bad range coder start)`);
    this.range = 0xffffffff;
    this.code = 0;
    for (let i = 0; i < 4; i++) this.code = ((this.code << 8) | this.input.byte()) >>> 0;
    if (this.code === this.range) throw new UserError(`${where}: damaged LZMA data (bad range coder start)`);
  }

  bit(probs: Uint16Array, i: number): number {
    let p = probs[i];
    // Both operands stay below 2^32, so the product is exact in a double.
    const bound = (this.range >>> 11) * p;
    let b: number;
    if (this.code < bound) {
      p += (2048 - p) >>> 5;
      this.range = bound;
      b = 0;
    } else {
      p -= p >>> 5;
      this.code -= bound;
      this.range -= bound;
      b = 1;
    }
    probs[i] = p;
    if (this.range < TOP) {
      this.range = (this.range << 8) >>> 0;
      this.code = ((this.code << 8) | this.input.byte()) >>> 0;
    }
    return b;
  }

  direct(numBits: number): number {
    let res = 0;
    for (let i = 0; i < numBits; i++) {
      this.range >>>= 1;
      let b = 0;
      if (this.code >= this.range) {
        this.code -= this.range;
        b = 1;
      }
      res = res * 2 + b;
      if (this.range < TOP) {
        this.range = (this.range << 8) >>> 0;
        this.code = ((this.code << 8) | this.input.byte()) >>> 0;
      }
    }
    return res;
  }

  tree(probs: Uint16Array, base: number, numBits: number): number {
    let m = 1;
    for (let i = 0; i < numBits; i++) m = (m << 1) + this.bit(probs, base + m);
    return m - (1 << numBits);
  }

  reverseTree(probs: Uint16Array, base: number, numBits: number): number {
    let m = 1;
    let sym = 0;
    for (let i = 0; i < numBits; i++) {
      const b = this.bit(probs, base + m);
      m = (m << 1) + b;
      sym |= b << i;
    }
    return sym;
  }
}

class LenDecoder {
  private readonly choice = new Uint16Array(2);
  private readonly low = new Uint16Array(16 << 3);
  private readonly mid = new Uint16Array(16 << 3);
  private readonly high = new Uint16Array(256);

  reset(): void {
    for (const a of [this.choice, this.low, this.mid, this.high]) a.fill(PROB_INIT);
  }

  decode(rc: RangeDecoder, posState: number): number {
    if (rc.bit(this.choice, 0) === 0) return rc.tree(this.low, posState << 3, 3);
    if (rc.bit(this.choice, 1) === 0) return 8 + rc.tree(this.mid, posState << 3, 3);
    return 16 + rc.tree(this.high, 0, 8);
  }
}

const STATES = 12;
const END_POS_MODEL = 14;
const FULL_DISTANCES = 128;
const ALIGN_BITS = 4;
const MATCH_MIN_LEN = 2;

/** lc, lp and pb: how many bits of context literal and match coding use. */
export interface LzmaProps {
  lc: number;
  lp: number;
  pb: number;
}

/** The LZMA decoder proper; LZMA2 drives it chunk by chunk, keeping or resetting its state. */
class LzmaDecoder {
  private props: LzmaProps = { lc: 0, lp: 0, pb: 0 };
  private literals = new Uint16Array(0x300);
  private readonly isMatch = new Uint16Array(STATES << 4);
  private readonly isRep = new Uint16Array(STATES);
  private readonly isRepG0 = new Uint16Array(STATES);
  private readonly isRepG1 = new Uint16Array(STATES);
  private readonly isRepG2 = new Uint16Array(STATES);
  private readonly isRep0Long = new Uint16Array(STATES << 4);
  private readonly posSlot = new Uint16Array(4 << 6);
  private readonly posDecoders = new Uint16Array(1 + FULL_DISTANCES - END_POS_MODEL);
  private readonly align = new Uint16Array(1 << ALIGN_BITS);
  private readonly lenDecoder = new LenDecoder();
  private readonly repLenDecoder = new LenDecoder();
  private state = 0;
  private rep0 = 0;
  private rep1 = 0;
  private rep2 = 0;
  private rep3 = 0;

  constructor(
    private readonly window: OutWindow,
    private readonly dictSize: number,
    private readonly where: string,
  ) {}

  setProps(props: LzmaProps): void {
    if (props.lc > 8 || props.lp > 4 || props.pb > 4) throw new UserError(`${this.where}: unsupported LZMA properties`);
    this.props = props;
    this.literals = new Uint16Array(0x300 << (props.lc + props.lp));
  }

  /** Fresh probabilities and state, as at the start of a stream. */
  resetState(): void {
    for (const a of [this.literals, this.isMatch, this.isRep, this.isRepG0, this.isRepG1, this.isRepG2, this.isRep0Long, this.posSlot, this.posDecoders, this.align]) {
      a.fill(PROB_INIT);
    }
    this.lenDecoder.reset();
    this.repLenDecoder.reset();
    this.state = 0;
    this.rep0 = this.rep1 = this.rep2 = this.rep3 = 0;
  }

  private literal(rc: RangeDecoder): void {
    const w = this.window;
    const { lc, lp } = this.props;
    const prev = w.total > 0 ? w.get(1) : 0;
    const litState = ((w.total & ((1 << lp) - 1)) << lc) + (prev >>> (8 - lc));
    const base = 0x300 * litState;
    const probs = this.literals;
    let symbol = 1;
    if (this.state >= 7) {
      let matchByte = w.get(this.rep0 + 1);
      do {
        const matchBit = (matchByte >>> 7) & 1;
        matchByte <<= 1;
        const b = rc.bit(probs, base + ((1 + matchBit) << 8) + symbol);
        symbol = (symbol << 1) | b;
        if (matchBit !== b) break;
      } while (symbol < 0x100);
    }
    while (symbol < 0x100) symbol = (symbol << 1) | rc.bit(probs, base + symbol);
    w.put(symbol - 0x100);
  }

  private distance(rc: RangeDecoder, len: number): number {
    const lenState = Math.min(len, 3);
    const slot = rc.tree(this.posSlot, lenState << 6, 6);
    if (slot < 4) return slot;
    const directBits = (slot >>> 1) - 1;
    // Distances reach 2^32 - 1 (the end marker), past int32: keep to double arithmetic.
    let dist = (2 | (slot & 1)) * 2 ** directBits;
    if (slot < END_POS_MODEL) return dist + rc.reverseTree(this.posDecoders, dist - slot, directBits);
    dist += rc.direct(directBits - ALIGN_BITS) * 16;
    return dist + rc.reverseTree(this.align, 0, ALIGN_BITS);
  }

  /**
   * Decode until `outSize` more bytes are out. With `endMarkerOk`, an end marker may stop it
   * early (the caller then checks the size); returns whether a marker was seen.
   */
  decode(rc: RangeDecoder, outSize: number, endMarkerOk: boolean): boolean {
    const w = this.window;
    const pbMask = (1 << this.props.pb) - 1;
    const target = w.produced + outSize;
    while (w.produced < target) {
      const posState = w.total & pbMask;
      const s = this.state;
      if (rc.bit(this.isMatch, (s << 4) + posState) === 0) {
        this.literal(rc);
        this.state = s < 4 ? 0 : s < 10 ? s - 3 : s - 6;
        continue;
      }
      let len: number;
      if (rc.bit(this.isRep, s) !== 0) {
        if (w.total === 0) throw new UserError(`${this.where}: damaged LZMA data (repeat before any output)`);
        if (rc.bit(this.isRepG0, s) === 0) {
          if (rc.bit(this.isRep0Long, (s << 4) + posState) === 0) {
            this.state = s < 7 ? 9 : 11;
            w.put(w.get(this.rep0 + 1));
            continue;
          }
        } else {
          let dist: number;
          if (rc.bit(this.isRepG1, s) === 0) dist = this.rep1;
          else {
            if (rc.bit(this.isRepG2, s) === 0) dist = this.rep2;
            else {
              dist = this.rep3;
              this.rep3 = this.rep2;
            }
            this.rep2 = this.rep1;
          }
          this.rep1 = this.rep0;
          this.rep0 = dist;
        }
        len = this.repLenDecoder.decode(rc, posState);
        this.state = s < 7 ? 8 : 11;
      } else {
        this.rep3 = this.rep2;
        this.rep2 = this.rep1;
        this.rep1 = this.rep0;
        len = this.lenDecoder.decode(rc, posState);
        this.state = s < 7 ? 7 : 10;
        this.rep0 = this.distance(rc, len);
        if (this.rep0 === 0xffffffff) {
          if (endMarkerOk) return true;
          throw new UserError(`${this.where}: LZMA data ends before its stated size`);
        }
        if (this.rep0 >= this.dictSize || this.rep0 >= w.total) {
          throw new UserError(`${this.where}: damaged LZMA data (match reaches before the start)`);
        }
      }
      len += MATCH_MIN_LEN;
      if (len > target - w.produced) throw new UserError(`${this.where}: damaged LZMA data (match runs past the stated size)`);
      w.copy(this.rep0 + 1, len);
    }
    return false;
  }
}

/** lc/lp/pb from their one-byte encoding ((pb * 5 + lp) * 9 + lc). */
export function decodePropsByte(d: number, where: string): LzmaProps {
  if (d >= 9 * 5 * 5) throw new UserError(`${where}: bad LZMA properties byte ${d}`);
  return { lc: d % 9, lp: Math.floor(d / 9) % 5, pb: Math.floor(d / 45) };
}

/** Window size to allocate: the dictionary, but no more than the output (small files, big dictionaries). */
function windowSize(dictSize: number, outSize: number): number {
  return Math.max(4096, Math.min(dictSize, outSize));
}

/**
 * Decompress a raw LZMA stream (7z's LZMA coder: 5 property bytes, then the stream) producing
 * exactly `outSize` bytes, handed to `sink` in pieces as they are ready.
 */
export function lzmaDecode(props: Uint8Array, input: ByteReader, outSize: number, sink: (chunk: Uint8Array) => void, where: string): void {
  if (props.length < 5) throw new UserError(`${where}: LZMA properties are ${props.length} bytes, expected 5`);
  const dictSize = Math.max(4096, props[1] | (props[2] << 8) | (props[3] << 16) | (props[4] * 2 ** 24));
  const window = new OutWindow(windowSize(dictSize, outSize), sink);
  const dec = new LzmaDecoder(window, dictSize, where);
  dec.setProps(decodePropsByte(props[0], where));
  dec.resetState();
  const rc = new RangeDecoder(input);
  rc.init(where);
  if (dec.decode(rc, outSize, true)) throw new UserError(`${where}: LZMA data ends before its stated size`);
  window.flush();
}

/** LZMA2's dictionary size from its one property byte. */
export function lzma2DictSize(p: number, where: string): number {
  if (p > 40) throw new UserError(`${where}: bad LZMA2 dictionary size byte ${p}`);
  if (p === 40) return 0xffffffff;
  return (2 | (p & 1)) * 2 ** ((p >>> 1) + 11);
}

/**
 * Decompress an LZMA2 stream (7z's LZMA2 coder: 1 property byte, then chunks) producing exactly
 * `outSize` bytes. Chunks are stored or LZMA-coded; each says which state it resets.
 */
export function lzma2Decode(props: Uint8Array, input: ByteReader, outSize: number, sink: (chunk: Uint8Array) => void, where: string): void {
  if (props.length < 1) throw new UserError(`${where}: LZMA2 properties missing`);
  const dictSize = lzma2DictSize(props[0], where);
  const window = new OutWindow(windowSize(dictSize, outSize), sink);
  const dec = new LzmaDecoder(window, dictSize, where);
  let needProps = true;
  let needDictReset = true;
  for (;;) {
    const control = input.byte();
    if (control === 0x00) break;
    if (control === 0x01 || control === 0x02) {
      if (control === 0x02 && needDictReset) throw new UserError(`${where}: damaged LZMA2 data (no dictionary reset)`);
      if (control === 0x01) window.resetDict();
      needDictReset = false;
      const size = ((input.byte() << 8) | input.byte()) + 1;
      if (window.produced + size > outSize) throw new UserError(`${where}: LZMA2 data longer than its stated size`);
      for (let i = 0; i < size; i++) window.put(input.byte());
      continue;
    }
    if (control < 0x80) throw new UserError(`${where}: damaged LZMA2 data (control byte ${control})`);
    const reset = (control >>> 5) & 3;
    const unpacked = (control & 0x1f) * 65536 + ((input.byte() << 8) | input.byte()) + 1;
    const packed = ((input.byte() << 8) | input.byte()) + 1;
    if (reset === 3) {
      window.resetDict();
      needDictReset = false;
    }
    else if (needDictReset) throw new UserError(`${where}: damaged LZMA2 data (no dictionary reset)`);
    if (reset >= 2) {
      dec.setProps(decodePropsByte(input.byte(), where));
      needProps = false;
    } else if (needProps) throw new UserError(`${where}: damaged LZMA2 data (no properties)`);
    if (reset >= 1) dec.resetState();
    if (window.produced + unpacked > outSize) throw new UserError(`${where}: LZMA2 data longer than its stated size`);
    const start = input.offset;
    const rc = new RangeDecoder(input);
    rc.init(where);
    dec.decode(rc, unpacked, false);
    // The range coder may stop short of the chunk's last bytes; the next chunk starts after them.
    input.skipTo(start + packed);
  }
  if (window.produced !== outSize) throw new UserError(`${where}: LZMA2 data gives ${window.produced} bytes, expected ${outSize}`);
  window.flush();
}

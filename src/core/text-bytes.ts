/**
 * A text column kept as the UTF-8 bytes it was read from: the cells of every column of a file
 * live in a few large shared buffers (a TextArena), and each row has a place (buffer and offset in
 * one word) and a length: 8 bytes. Grading compares, hashes and sorts ids on these bytes; JavaScript strings (several
 * times the memory, and most of the reading time) are made only when some code asks for them.
 * UTF-8 is checked when the file is read, so equal bytes are equal strings, and byte order is
 * code point order (Python's `<` on str).
 */

/** First and largest buffer of an arena; a longer cell gets a buffer of its own. */
const FIRST_CHUNK = 1 << 16;
const OFFSET_BITS = 22;
const MAX_CHUNK = 1 << OFFSET_BITS;
const OFFSET_MASK = MAX_CHUNK - 1;
/** A place is buffer << 22 | offset in 32 bits, so an arena holds at most 1024 buffers (4 GiB). */
const MAX_CHUNKS = 1 << (32 - OFFSET_BITS);

/** Length recorded for a missing value. */
const NA = 0xffffffff;

/** Sum of the bytes {@link TextBytes.touchRows} read, kept so those loads are not optimised away. */
let touched = 0;

/** Buffer's own decoder, without toString's argument handling. */
interface Utf8Slicer {
  utf8Slice(start: number, end: number): string;
}

function slice(c: Buffer, a: number, z: number): string {
  return (c as unknown as Utf8Slicer).utf8Slice(a, z);
}

/** Buffers that the cells of one read are copied into, shared by all its columns. */
export class TextArena {
  readonly chunks: Buffer[] = [];
  private chunk: Buffer | null = null;
  private used = 0;
  /** Where the last {@link copy} put its bytes: buffer index << 22 | offset. */
  place = 0;

  /** `file`: the input, named when its text outgrows the arena. */
  constructor(private readonly file = "<input>") {}

  /** Copy b[a, z) in; its place is left in `place`. */
  copy(b: Uint8Array, a: number, z: number): void {
    const n = z - a;
    let chunk = this.chunk;
    if (chunk === null || this.used + n > chunk.length) chunk = this.newChunk(n);
    const at = this.used;
    // A loop beats making a subarray view per cell up to a few hundred bytes.
    if (n < 512) for (let k = 0; k < n; k++) chunk[at + k] = b[a + k];
    else chunk.set(b.subarray(a, z), at);
    this.used = at + n;
    this.place = ((this.chunks.length - 1) << OFFSET_BITS) | at;
  }

  private newChunk(need: number): Buffer {
    if (this.chunks.length === MAX_CHUNKS) {
      throw new Error(`${this.file}: its text cells take more than 4 GiB, more than one read can hold`);
    }
    const last = this.chunk === null ? FIRST_CHUNK / 2 : Math.min(this.chunk.length, MAX_CHUNK);
    // A cell longer than a buffer gets one of its own, at offset 0.
    const chunk = Buffer.allocUnsafeSlow(Math.max(need, Math.min(MAX_CHUNK, last * 2)));
    this.chunks.push(chunk);
    this.chunk = chunk;
    this.used = 0;
    return chunk;
  }
}

/** The cells of a text column as bytes: per row, two words (place, length). */
export class TextBytes {
  constructor(
    /** The buffers holding the cells' bytes (an arena's, possibly shared with other columns). */
    readonly chunks: Buffer[],
    /** Row i's place (buffer << 22 | offset) and length at 2i, 2i+1; length 0xffffffff for a missing value. */
    readonly cells: Uint32Array,
  ) {}

  /** Number of rows. */
  get length(): number {
    return this.cells.length >>> 1;
  }

  /** Whether row i is a missing value. */
  isNa(i: number): boolean {
    return this.cells[2 * i + 1] === NA;
  }

  /** The buffer holding row i's bytes. */
  bufferOf(i: number): Buffer {
    return this.chunks[this.cells[2 * i] >>> OFFSET_BITS];
  }

  /** Where row i's bytes start in {@link bufferOf}. */
  offsetOf(i: number): number {
    return this.cells[2 * i] & OFFSET_MASK;
  }

  /** How many bytes row i holds (0xffffffff for a missing value). */
  lengthOf(i: number): number {
    return this.cells[2 * i + 1];
  }

  /** The text of row i, or null for a missing value. */
  text(i: number): string | null {
    const c = this.cells;
    const n = c[2 * i + 1];
    if (n === NA) return null;
    const a = c[2 * i] & OFFSET_MASK;
    return slice(this.chunks[c[2 * i] >>> OFFSET_BITS], a, a + n);
  }

  /**
   * Read rows[from, to) (negative entries skipped): their first and last bytes, or the byte at
   * `at` when it is given. Loops over rows scattered in memory call this for a batch before
   * comparing it: the loads of this short loop overlap, a compare loop's would not.
   */
  touchRows(rows: ArrayLike<number>, from: number, to: number, at = -1): void {
    const c = this.cells;
    let sum = 0;
    for (let k = from, end = Math.min(to, rows.length); k < end; k++) {
      const i = rows[k];
      if (i < 0) continue;
      const n = c[2 * i + 1];
      if (n === NA || n === 0) continue;
      const x = this.chunks[c[2 * i] >>> OFFSET_BITS];
      const a = c[2 * i] & OFFSET_MASK;
      if (at < 0) sum += x[a] + x[a + n - 1];
      else if (at < n) sum += x[a + at];
    }
    touched += sum;
  }

  /** Whether row i here and row j of `other` hold the same text (missing values never do). */
  equalRows(i: number, other: TextBytes, j: number): boolean {
    const c = this.cells;
    const d = other.cells;
    const n = c[2 * i + 1];
    if (n === NA || n !== d[2 * j + 1]) return false;
    const x = this.chunks[c[2 * i] >>> OFFSET_BITS];
    const y = other.chunks[d[2 * j] >>> OFFSET_BITS];
    let a = c[2 * i] & OFFSET_MASK;
    let b = d[2 * j] & OFFSET_MASK;
    for (const end = a + n; a < end; a++, b++) if (x[a] !== y[b]) return false;
    return true;
  }

  /** Whether row i holds exactly the bytes `v` (a missing value never does). */
  equalsBytes(i: number, v: Uint8Array): boolean {
    const c = this.cells;
    if (c[2 * i + 1] !== v.length) return false;
    const x = this.chunks[c[2 * i] >>> OFFSET_BITS];
    const a = c[2 * i] & OFFSET_MASK;
    for (let k = 0; k < v.length; k++) if (x[a + k] !== v[k]) return false;
    return true;
  }

  /** Code point order of rows i and j (both present), looking from byte `from` on. */
  compareRows(i: number, j: number, from = 0): number {
    const c = this.cells;
    const ni = c[2 * i + 1];
    const nj = c[2 * j + 1];
    const x = this.chunks[c[2 * i] >>> OFFSET_BITS];
    const y = this.chunks[c[2 * j] >>> OFFSET_BITS];
    const a = c[2 * i] & OFFSET_MASK;
    const b = c[2 * j] & OFFSET_MASK;
    const n = ni < nj ? ni : nj;
    for (let k = from; k < n; k++) {
      const d = x[a + k] - y[b + k];
      if (d !== 0) return d;
    }
    return ni - nj;
  }

  /**
   * Bytes k..k+width-1 of row i as one number: each byte plus one, 0 past the end (so a prefix
   * sorts first), in base 257. Numbers compare as the bytes do; `width` at most 6 keeps them exact.
   */
  word(i: number, k: number, width: number): number {
    const c = this.cells;
    const n = c[2 * i + 1];
    const x = this.chunks[c[2 * i] >>> OFFSET_BITS];
    const a = c[2 * i] & OFFSET_MASK;
    let w = 0;
    for (let e = k + width; k < e; k++) w = w * 257 + (k < n ? x[a + k] + 1 : 0);
    return w;
  }

  /** The rows at `indices`, in that order, sharing this column's buffers. */
  take(indices: ArrayLike<number>): TextBytes {
    const n = indices.length;
    const c = this.cells;
    const out = new Uint32Array(2 * n);
    for (let k = 0; k < n; k++) {
      const i = 2 * indices[k];
      out[2 * k] = c[i];
      out[2 * k + 1] = c[i + 1];
    }
    return new TextBytes(this.chunks, out);
  }

  /** A 32-bit hash of row i's bytes (equal texts hash equally); not meaningful for a missing value. */
  hashRow(i: number): number {
    const c = this.cells;
    const m = c[2 * i + 1];
    return m === NA ? 0 : hashBytes(this.chunks[c[2 * i] >>> OFFSET_BITS], c[2 * i] & OFFSET_MASK, m);
  }

  /** Every row as a JavaScript string (null for missing values); repeated short labels share one string. */
  strings(): (string | null)[] {
    const n = this.length;
    const out: (string | null)[] = new Array(n);
    const cache = new Map<number, string>();
    let lookups = 0;
    let hits = 0;
    let caching = true;
    const { chunks, cells } = this;
    for (let i = 0; i < n; i++) {
      const m = cells[2 * i + 1];
      if (m === NA) {
        out[i] = null;
        continue;
      }
      const c = chunks[cells[2 * i] >>> OFFSET_BITS];
      const a = cells[2 * i] & OFFSET_MASK;
      if (!caching || m > 32) {
        out[i] = slice(c, a, a + m);
        continue;
      }
      let h = 0x811c9dc5;
      let ascii = true;
      for (let k = a; k < a + m; k++) {
        const b = c[k];
        if (b >= 0x80) {
          ascii = false;
          break;
        }
        h = Math.imul(h ^ b, 0x01000193);
      }
      if (!ascii) {
        out[i] = slice(c, a, a + m);
        continue;
      }
      lookups++;
      const hit = cache.get(h);
      if (hit !== undefined && hit.length === m && sameAscii(hit, c, a)) {
        hits++;
        out[i] = hit;
        continue;
      }
      const t = slice(c, a, a + m);
      if (cache.size < 4096) cache.set(h, t);
      out[i] = t;
      // Columns of mostly distinct values (ids) only pay for the hashing: stop trying.
      if (lookups >= 20_000 && hits < lookups / 2) caching = false;
    }
    return out;
  }
}

/** A murmur3-style hash of c[a, a + m), four bytes a step. */
function hashBytes(c: Buffer, a: number, m: number): number {
  let h = m;
  let k = a;
  for (const end = a + (m & ~3); k < end; k += 4) {
    let w = c[k] | (c[k + 1] << 8) | (c[k + 2] << 16) | (c[k + 3] << 24);
    w = Math.imul(w, 0xcc9e2d51);
    w = (w << 15) | (w >>> 17);
    h ^= Math.imul(w, 0x1b873593);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let w = 0;
  for (let s = 0; k < a + m; k++, s += 8) w |= c[k] << s;
  h ^= Math.imul((Math.imul(w, 0xcc9e2d51) << 15) | (Math.imul(w, 0xcc9e2d51) >>> 17), 0x1b873593);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

function sameAscii(s: string, c: Buffer, a: number): boolean {
  for (let k = 0; k < s.length; k++) if (s.charCodeAt(k) !== c[a + k]) return false;
  return true;
}

/** Collects one column's cells row by row into a {@link TextBytes}. */
export class TextBytesBuilder {
  private cells: Uint32Array;
  /** Rows so far. */
  rows = 0;

  /** `capacity`: the expected number of rows (the array grows past it when needed). */
  constructor(
    private readonly arena: TextArena,
    capacity = 4,
  ) {
    this.cells = new Uint32Array(2 * Math.max(4, capacity));
  }

  private grow(): void {
    const cells = new Uint32Array(2 * (Math.ceil(this.rows * 1.5) + 16));
    cells.set(this.cells);
    this.cells = cells;
  }

  /** Drop the rows from `rows` on (their bytes stay in the arena, unused). */
  truncate(rows: number): void {
    if (rows < this.rows) this.rows = rows;
  }

  /** Append a missing value. */
  appendNa(): void {
    const i = 2 * this.rows;
    if (i === this.cells.length) this.grow();
    this.cells[i + 1] = NA;
    this.rows++;
  }

  /** Append the cell b[a, z). */
  append(b: Uint8Array, a: number, z: number): void {
    const i = 2 * this.rows;
    if (i === this.cells.length) this.grow();
    const arena = this.arena;
    arena.copy(b, a, z);
    const cells = this.cells;
    cells[i] = arena.place;
    cells[i + 1] = z - a;
    this.rows++;
  }

  /** The cells collected, then `tail`'s after them (both from the same arena). */
  finish(tail?: TextBytesBuilder): TextBytes {
    const head = 2 * this.rows;
    const more = 2 * (tail?.rows ?? 0);
    const n = head + more;
    let cells: Uint32Array;
    if (this.cells.length === n) cells = this.cells;
    else if (this.cells.length > n && this.cells.length - n <= n / 2) cells = this.cells.subarray(0, n);
    else {
      cells = new Uint32Array(n);
      cells.set(this.cells.subarray(0, Math.min(head, n)));
    }
    if (tail && more > 0) cells.set(tail.cells.subarray(0, more), head);
    return new TextBytes(this.arena.chunks, cells);
  }
}

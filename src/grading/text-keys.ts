/**
 * Id matching and sorting on the bytes of text columns read from CSV (see core/text-bytes.ts):
 * a hash index over rows, set equality, and a stable code point order, with none of the million
 * JavaScript strings the same work on `values` would make.
 */
import type { TextBytes } from "../core/text-bytes.js";

/** Rows of a text column grouped by content: `find` gives the earliest row holding a text, `next` the following one. */
export class TextIndex {
  /**
   * Per slot, the row holding it plus one (0: empty) and that row's hash, side by side so a probe
   * reads one place. Zero means empty so that no fill is needed: on small machines touching fresh
   * memory costs more than the probing.
   */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Per row, the next row with the same text plus one (0: none); written only for repeats. */
  private readonly nextRow: Int32Array;
  /** Number of distinct texts (missing values excluded). */
  readonly distinct: number;

  constructor(private readonly t: TextBytes) {
    const n = t.length;
    let size = 16;
    while (size < n * 2) size *= 2;
    const slots = (this.slots = new Int32Array(2 * size));
    this.mask = size - 1;
    this.nextRow = new Int32Array(n);
    // The last row of each repeated text, by its first row: repeats are rare in id columns.
    const lastRow = new Map<number, number>();
    let distinct = 0;
    for (let row = 0; row < n; row++) {
      if (t.isNa(row)) continue;
      const h = t.hashRow(row);
      const slot = this.slotOf(t, row, h);
      const head = slots[2 * slot] - 1;
      if (head < 0) {
        slots[2 * slot] = row + 1;
        slots[2 * slot + 1] = h;
        distinct++;
      } else {
        this.nextRow[lastRow.get(head) ?? head] = row + 1;
        lastRow.set(head, row);
      }
    }
    this.distinct = distinct;
  }

  /** The slot holding row j of `o` (hash h), or the empty slot where it would go. */
  private slotOf(o: TextBytes, j: number, h: number): number {
    const { slots, t, mask } = this;
    let slot = h & mask;
    for (;;) {
      const row = slots[2 * slot] - 1;
      if (row < 0 || (slots[2 * slot + 1] === h && t.equalRows(row, o, j))) return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** The first row holding the text of row j of `o`, or -1 (always -1 for a missing value). */
  find(o: TextBytes, j: number): number {
    if (o.isNa(j)) return -1;
    return this.slots[2 * this.slotOf(o, j, o.hashRow(j))] - 1;
  }

  /**
   * For each of `rows` of `o`, the first indexed row whose hash equals its own (-1: none), a guess
   * that callers confirm with {@link TextBytes.equalRows}. Each probe is independent of the
   * others, so the processor overlaps their cache misses, which a probe-and-compare loop cannot.
   */
  candidates(o: TextBytes, rows: ArrayLike<number>, out: Int32Array | Uint32Array = new Int32Array(rows.length)): Int32Array {
    const { slots, mask } = this;
    const guesses = new Int32Array(out.buffer, out.byteOffset, out.length);
    for (let j = 0; j < rows.length; j++) {
      const r = rows[j];
      const h = o.hashRow(r);
      let slot = h & mask;
      let found = -1;
      for (;;) {
        const row = slots[2 * slot] - 1;
        if (row < 0) break;
        if (slots[2 * slot + 1] === h) {
          found = row;
          break;
        }
        slot = (slot + 1) & mask;
      }
      guesses[j] = o.isNa(r) ? -1 : found;
    }
    return guesses;
  }

  /** The row after `row` with the same text, or -1. */
  next(row: number): number {
    return this.nextRow[row] - 1;
  }
}

/**
 * Python's `set(a) == set(b)` for two text columns: false when either holds a missing value,
 * since each NaN is a member of its own.
 */
export function sameTextSet(a: TextBytes, b: TextBytes): boolean {
  for (let i = 0; i < a.length; i++) if (a.isNa(i)) return false;
  for (let j = 0; j < b.length; j++) if (b.isNa(j)) return false;
  const ia = new TextIndex(a);
  for (let j = 0; j < b.length; j++) if (ia.find(b, j) < 0) return false;
  return new TextIndex(b).distinct === ia.distinct;
}

/** For every row of `other`, 1 when `members` holds its text (missing values never match). */
export function textMembership(members: TextBytes, other: TextBytes): Uint8Array {
  const n = other.length;
  const out = new Uint8Array(n);
  const index = new TextIndex(members);
  const rows = new Uint32Array(n);
  for (let j = 0; j < n; j++) rows[j] = j;
  // Row j of `other` is j itself, so the guesses can take the rows' place.
  const guesses = index.candidates(other, rows, rows);
  for (let j = 0; j < n; j++) {
    if ((j & (BATCH - 1)) === 0) members.touchRows(guesses, j, j + BATCH);
    const row = guesses[j];
    if (row >= 0 && members.equalRows(row, other, j)) out[j] = 1;
    else if (!other.isNa(j) && index.find(other, j) >= 0) out[j] = 1;
  }
  return out;
}

/**
 * For every answers row (taken in `ansOrder`, or file order when null), the earliest unused
 * submission row holding the same text; -1 where none does. Returns the rows in that order and
 * how many found nothing.
 */
export function matchTextRows(
  sub: TextBytes,
  ans: TextBytes,
  ansOrder: ArrayLike<number> | null,
): { rows: Uint32Array; mismatches: number } {
  const n = ans.length;
  const rows = new Uint32Array(n);
  for (let j = 0; j < n; j++) rows[j] = ansOrder ? ansOrder[j] : j;
  // Agents usually keep the sample submission's row order, which is the answers' order.
  let sameOrder = sub.length === n;
  for (let j = 0; j < n && sameOrder; j++) sameOrder = ans.equalRows(rows[j], sub, rows[j]);
  if (sameOrder) return { rows, mismatches: 0 };
  const index = new TextIndex(sub);
  const used = new Uint8Array(sub.length);
  let mismatches = 0;
  // In file order, answers row j is j itself, so the guesses can take the output's place.
  const guesses = ansOrder ? index.candidates(ans, rows) : index.candidates(ans, rows, rows);
  for (let j = 0; j < n; j++) {
    if ((j & (BATCH - 1)) === 0) sub.touchRows(guesses, j, j + BATCH);
    const at = ansOrder ? rows[j] : j;
    let row = guesses[j];
    // A wrong guess is a hash shared by different texts (rare): look the text up properly.
    if (row < 0 || !sub.equalRows(row, ans, at)) row = index.find(ans, at);
    while (row >= 0 && used[row]) row = index.next(row);
    if (row < 0) {
      mismatches++;
      continue;
    }
    used[row] = 1;
    rows[j] = row;
  }
  return { rows, mismatches };
}

/** Rows whose bytes are fetched together before they are compared. */
const BATCH = 64;

/** Below this many rows a bucket is finished by insertion sort. */
const SMALL = 16;

/**
 * Row order sorting a text column ascending by code point, stable, missing values last (what
 * pandas' `sort_values` gives). Rows are sorted six bytes at a time: each pass packs the next
 * six bytes of every row still tied into one number and sorts those numbers by radix, so a row
 * is fetched from memory once per six bytes of the prefix it shares with others.
 */
export function textBytesOrder(t: TextBytes): Uint32Array {
  const n = t.length;
  let present = 0;
  for (let i = 0; i < n; i++) if (!t.isNa(i)) present++;
  const rows = new Uint32Array(n);
  let p = 0;
  let q = present;
  let sorted = true;
  let prev = -1;
  for (let i = 0; i < n; i++) {
    if (t.isNa(i)) {
      rows[q++] = i;
      continue;
    }
    if (sorted && prev >= 0 && t.compareRows(prev, i) > 0) sorted = false;
    rows[p++] = i;
    prev = i;
  }
  if (!sorted) sortRows(t, rows.subarray(0, present));
  return rows;
}

/** Bytes read per pass: two halves of three bytes, each a number below 257^3 (25 bits). */
const WORD = 6;
const HALF = 3;

/** The arrays a sort works in: made once for its largest node, and kept for the next sort of the same job. */
interface SortScratch {
  high: Uint32Array;
  low: Uint32Array;
  from: Uint32Array;
  to: Uint32Array;
  /** Packed words of a node below RADIX_MIN rows. */
  packed: Float64Array;
}

// Weakly held: a grader's second sort (RMSE sorts both files) reuses memory the first already
// touched, since a WeakRef's target lives until the current job ends; after that it may go.
let scratchRef: WeakRef<SortScratch> | null = null;

function sortScratch(n: number): SortScratch {
  const kept = scratchRef?.deref();
  if (kept !== undefined && kept.high.length >= n) return kept;
  const made = { high: new Uint32Array(n), low: new Uint32Array(n), from: new Uint32Array(n), to: new Uint32Array(n), packed: new Float64Array(Math.min(n, RADIX_MIN)) };
  scratchRef = new WeakRef(made);
  return made;
}

function sortRows(t: TextBytes, rows: Uint32Array): void {
  const scratch = sortScratch(rows.length);
  const stack: number[] = [0, rows.length, 0];
  while (stack.length > 0) {
    const d = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    const n = hi - lo;
    if (n <= SMALL) {
      insertionSort(t, rows, lo, hi, d);
      continue;
    }
    if (n < RADIX_MIN) {
      packedPass(t, rows, lo, hi, d, scratch, stack);
      continue;
    }
    const high = scratch.high.subarray(0, n);
    const low = scratch.low.subarray(0, n);
    for (let k0 = 0; k0 < n; k0 += BATCH) {
      const k1 = Math.min(n, k0 + BATCH);
      // Below the first pass the rows are scattered: fetch a batch before reading its words.
      if (d > 0) t.touchRows(rows, lo + k0, lo + k1, d);
      for (let k = k0; k < k1; k++) {
        const row = rows[lo + k];
        high[k] = t.word(row, d, HALF);
        low[k] = t.word(row, d + HALF, HALF);
      }
    }
    const order = halvesOrder(high, low, scratch.from.subarray(0, n), scratch.to.subarray(0, n));
    for (let a = 0; a < n; ) {
      const x = high[order[a]];
      const y = low[order[a]];
      let b = a + 1;
      while (b < n && high[order[b]] === x && low[order[b]] === y) b++;
      // A word ending in "past the end" means the tied texts are equal, and already in row order.
      if (b - a > 1 && y % 257 !== 0) stack.push(lo + a, lo + b, d + WORD);
      a = b;
    }
    // The order array becomes the rows themselves: no third array of n.
    for (let k = 0; k < n; k++) order[k] = rows[lo + order[k]];
    rows.set(order, lo);
  }
}

/** Below this many keys, counting digits costs more than sorting them (see packedPass). */
const RADIX_MIN = 2048;
const DIGIT_BITS = 13;
const DIGIT_MASK = (1 << DIGIT_BITS) - 1;

/**
 * Stable ascending order by (high, low), each below 2^26: an LSD radix sort of 13-bit digits in
 * the two scratch arrays given (of the keys' length); returns the one holding the order.
 */
function halvesOrder(high: Uint32Array, low: Uint32Array, from: Uint32Array, to: Uint32Array): Uint32Array {
  const n = high.length;
  for (let k = 0; k < n; k++) from[k] = k;
  const counts = new Uint32Array((1 << DIGIT_BITS) + 1);
  for (let pass = 0; pass < 4; pass++) {
    const keys = pass < 2 ? low : high;
    const shift = (pass & 1) * DIGIT_BITS;
    counts.fill(0);
    for (let k = 0; k < n; k++) counts[((keys[k] >>> shift) & DIGIT_MASK) + 1]++;
    // A digit every key shares (a common prefix) leaves the order as it is.
    if (counts[((keys[0] >>> shift) & DIGIT_MASK) + 1] === n) continue;
    for (let g = 1; g <= 1 << DIGIT_BITS; g++) counts[g] += counts[g - 1];
    for (let k = 0; k < n; k++) {
      const row = from[k];
      to[counts[(keys[row] >>> shift) & DIGIT_MASK]++] = row;
    }
    [from, to] = [to, from];
  }
  return from;
}

/** Bytes read per pass of a node below RADIX_MIN rows: 257^5 < 2^41, leaving 11 bits of a double's 53 for the position. */
const PACK = 5;

/**
 * One MSD pass over a node of fewer than RADIX_MIN rows: each row's next five bytes, as a number,
 * times RADIX_MIN plus its position, sorted by the built-in numeric sort. Positions are distinct,
 * so ties keep their order (the sort is stable) without a comparison function, which V8 would
 * call for every comparison.
 */
function packedPass(t: TextBytes, rows: Uint32Array, lo: number, hi: number, d: number, scratch: SortScratch, stack: number[]): void {
  const n = hi - lo;
  const packed = scratch.packed.subarray(0, n);
  for (let k0 = 0; k0 < n; k0 += BATCH) {
    const k1 = Math.min(n, k0 + BATCH);
    if (d > 0) t.touchRows(rows, lo + k0, lo + k1, d);
    for (let k = k0; k < k1; k++) packed[k] = t.word(rows[lo + k], d, PACK) * RADIX_MIN + k;
  }
  packed.sort();
  for (let a = 0; a < n; ) {
    const w = Math.floor(packed[a] / RADIX_MIN);
    let b = a + 1;
    while (b < n && Math.floor(packed[b] / RADIX_MIN) === w) b++;
    if (b - a > 1 && w % 257 !== 0) stack.push(lo + a, lo + b, d + PACK);
    a = b;
  }
  const order = scratch.from;
  for (let k = 0; k < n; k++) order[k] = rows[lo + (packed[k] % RADIX_MIN)];
  rows.set(order.subarray(0, n), lo);
}

function insertionSort(t: TextBytes, rows: Uint32Array, lo: number, hi: number, d: number): void {
  for (let k = lo + 1; k < hi; k++) {
    const r = rows[k];
    let j = k - 1;
    while (j >= lo && t.compareRows(rows[j], r, d) > 0) {
      rows[j + 1] = rows[j];
      j--;
    }
    rows[j + 1] = r;
  }
}

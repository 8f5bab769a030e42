// Run-length masks kept as runs rather than pixels: upstream's decoding rules (mlebench's
// rle_decode), without materialising a full image per row.

import { pyInt } from "../../pycompat/pynum.js";
import { pySplit } from "../../pycompat/pystr.js";

/**
 * A mask as sorted, disjoint, non-touching [start, end) runs of flat pixel indices, numbered down
 * each column and then across (index = column · height + row).
 */
export interface Runs {
  runs: Int32Array;
  /** Pixels set. */
  count: number;
}

/** A mask with no pixel set. */
export const EMPTY_RUNS: Runs = { runs: new Int32Array(0), count: 0 };

/**
 * Decode "start length ..." (1-based) into runs of a height × width image, or throw an Error
 * saying which rule the text breaks: starts sorted, all values positive integers, no overlap.
 * As upstream's numpy arithmetic has it, runs past the last pixel are cut off, one lone value
 * draws nothing and three values share their one length; other odd counts fail.
 */
export function decodeRuns(text: string, height: number, width: number): Runs {
  const tokens = pySplit(text);
  if (tokens.length === 0) return EMPTY_RUNS;
  const values = tokens.map((t) => {
    const v = pyInt(t);
    if (v === null) throw new Error(`${JSON.stringify(t)} is not an integer`);
    return Number(v);
  });
  const starts = values.filter((_, i) => i % 2 === 0);
  let lengths = values.filter((_, i) => i % 2 === 1);
  for (let i = 1; i < starts.length; i++) {
    if (starts[i] < starts[i - 1]) throw new Error(`the starts must be sorted, but ${starts[i]} follows ${starts[i - 1]}`);
  }
  if (starts.some((s) => s <= 0) || lengths.some((l) => l <= 0)) throw new Error("all starts and lengths must be positive integers");
  if (lengths.length !== starts.length) {
    if (lengths.length === 0) return EMPTY_RUNS;
    if (lengths.length !== 1) throw new Error(`it has an odd number of values (${values.length}); starts and lengths must pair up`);
    lengths = starts.map(() => lengths[0]);
  }
  const size = height * width;
  const out: number[] = [];
  let count = 0;
  let reach = 0;
  for (let r = 0; r < starts.length; r++) {
    const lo = starts[r] - 1;
    if (lo >= size) continue;
    const hi = Math.min(lo + lengths[r], size);
    if (lo < reach) throw new Error(`the run starting at ${starts[r]} overlaps the run before it`);
    if (out.length > 0 && out[out.length - 1] === lo) out[out.length - 1] = hi;
    else out.push(lo, hi);
    count += hi - lo;
    reach = hi;
  }
  return { runs: Int32Array.from(out), count };
}

/** Pixels set in both masks. */
export function overlap(a: Runs, b: Runs): number {
  const x = a.runs;
  const y = b.runs;
  let i = 0;
  let j = 0;
  let total = 0;
  while (i < x.length && j < y.length) {
    const lo = Math.max(x[i], y[j]);
    const hi = Math.min(x[i + 1], y[j + 1]);
    if (hi > lo) total += hi - lo;
    if (x[i + 1] < y[j + 1]) i += 2;
    else j += 2;
  }
  return total;
}

/** The union of several masks of one image. */
export function union(masks: Runs[]): Runs {
  if (masks.length === 1) return masks[0];
  const pairs: [number, number][] = [];
  for (const m of masks) for (let i = 0; i < m.runs.length; i += 2) pairs.push([m.runs[i], m.runs[i + 1]]);
  pairs.sort((p, q) => p[0] - q[0]);
  const out: number[] = [];
  let count = 0;
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]) {
      if (hi > out[last]) {
        count += hi - out[last];
        out[last] = hi;
      }
    } else {
      out.push(lo, hi);
      count += hi - lo;
    }
  }
  return { runs: Int32Array.from(out), count };
}

/** Whether two masks set the same pixels. */
export function sameRuns(a: Runs, b: Runs): boolean {
  if (a.count !== b.count || a.runs.length !== b.runs.length) return false;
  for (let i = 0; i < a.runs.length; i++) if (a.runs[i] !== b.runs[i]) return false;
  return true;
}

/**
 * Sorting and matching of integer event ids for test sets of millions of events, where the
 * generic id helpers (hash sets, comparison sorts) take minutes.
 */
import type { Column } from "../../core/table.js";
import { cellText } from "../../grading/columns.js";

const TWO_32 = 2 ** 32;

/** The ids as float64 when every one is a whole number in [0, 2^53); null otherwise. */
export function wholeIds(col: Column): Float64Array | null {
  if (col.kind !== "int" && col.kind !== "float") return null;
  const v = col.values;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!(x >= 0 && x <= Number.MAX_SAFE_INTEGER && Math.floor(x) === x)) return null;
  }
  return v;
}

/** Stable ascending row order of whole-number ids, by LSD radix sort on 16-bit digits. */
export function idOrder(ids: Float64Array): Uint32Array {
  const n = ids.length;
  let order = new Uint32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (i > 0 && ids[i - 1] > ids[i]) sorted = false;
  }
  // Test sets usually list their events in id order already.
  if (sorted) return order;
  let spare = new Uint32Array(n);
  const digit = (x: number, pass: number) => {
    const half = pass < 2 ? x % TWO_32 : Math.floor(x / TWO_32);
    return pass % 2 === 0 ? half & 0xffff : half >>> 16;
  };
  const counts = new Uint32Array(0x10001);
  for (let pass = 0; pass < 4; pass++) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[digit(ids[i], pass) + 1]++;
    // A digit that is the same for every id leaves the order as it is.
    if (counts[digit(ids[0], pass) + 1] === n) continue;
    for (let d = 0; d < 0x10000; d++) counts[d + 1] += counts[d];
    for (let i = 0; i < n; i++) {
      const row = order[i];
      spare[counts[digit(ids[row], pass)]++] = row;
    }
    [order, spare] = [spare, order];
  }
  return order;
}

/**
 * Why two id lists, each given with its ascending order, are not the same list: ids missing
 * from the submission, ids not in the answers, repeated ids; null when they are equal.
 */
export function describeIdMismatch(
  sub: Float64Array,
  subOrder: Uint32Array,
  ans: Float64Array,
  ansOrder: Uint32Array,
): string | null {
  let missing = 0;
  let unknown = 0;
  let repeated = 0;
  let missingExample = NaN;
  let unknownExample = NaN;
  let i = 0;
  let j = 0;
  while (i < subOrder.length || j < ansOrder.length) {
    const s = i < subOrder.length ? sub[subOrder[i]] : Infinity;
    const a = j < ansOrder.length ? ans[ansOrder[j]] : Infinity;
    if (i > 0 && s === sub[subOrder[i - 1]] && s !== Infinity) {
      repeated++;
      i++;
    } else if (s === a) {
      i++;
      j++;
    } else if (s < a) {
      if (unknown++ === 0) unknownExample = s;
      i++;
    } else {
      if (missing++ === 0) missingExample = a;
      j++;
    }
  }
  const parts: string[] = [];
  if (missing > 0) parts.push(`${missing} answer event_id(s) are missing (e.g. ${cellText(missingExample)})`);
  if (unknown > 0) parts.push(`${unknown} event_id(s) are not in the answers (e.g. ${cellText(unknownExample)})`);
  if (repeated > 0) parts.push(`${repeated} row(s) repeat an event_id`);
  return parts.length > 0 ? parts.join("; ") : null;
}

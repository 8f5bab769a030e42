/**
 * Matching of integer event ids for test sets of millions of events in one sorted pass, which
 * also says what differs.
 */
import type { Column } from "../../core/table.js";
import { cellText } from "../../grading/columns.js";

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

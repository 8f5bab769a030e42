/**
 * AP@k straight from the bytes of two text cells holding space-separated tokens (h-and-m's
 * article lists): the number `averagePrecisionAtK(new Set(a.split(" ")), p.split(" "), k)` gives,
 * without making a string, an array or a set per row. Rows too long for the small scratch
 * arrays come back as NaN, for the caller to score on strings.
 */
import type { TextBytes } from "../core/text-bytes.js";

/** Most tokens of an answer row, and most k, that the byte path takes. */
const MAX_ACTUAL = 64;
const MAX_K = 32;

const NAN_TEXT = Buffer.from("nan");
const SPACE = 32;

/** Token bounds of one row (starts and ends in `buf`) and a hash of each, compared before the bytes. */
interface Tokens {
  buf: Buffer;
  start: Int32Array;
  end: Int32Array;
  hash: Int32Array;
  count: number;
}

function tokens(most: number): Tokens {
  return { buf: NAN_TEXT, start: new Int32Array(most), end: new Int32Array(most), hash: new Int32Array(most), count: 0 };
}

const actualTokens = tokens(MAX_ACTUAL);
const predictedTokens = tokens(MAX_K);

/** Split row i on single spaces into `out`, at most `most` tokens; false when there are more (and `all` is set). */
function split(t: TextBytes, i: number, out: Tokens, most: number, all: boolean): boolean {
  let buf: Buffer;
  let a: number;
  let z: number;
  const n = t.lengthOf(i);
  if (n === 0xffffffff) {
    // pandas' astype(str) of a missing value.
    buf = NAN_TEXT;
    a = 0;
    z = NAN_TEXT.length;
  } else {
    buf = t.bufferOf(i);
    a = t.offsetOf(i);
    z = a + n;
  }
  out.buf = buf;
  let count = 0;
  let from = a;
  let h = 0x811c9dc5;
  for (let p = a; ; p++) {
    const c = p === z ? SPACE : buf[p];
    if (c === SPACE) {
      if (count === most) {
        if (all) return false;
        break;
      }
      out.start[count] = from;
      out.end[count] = p;
      out.hash[count] = h;
      count++;
      from = p + 1;
      h = 0x811c9dc5;
      if (p === z) break;
    } else h = Math.imul(h ^ c, 0x01000193);
  }
  out.count = count;
  return true;
}

function sameToken(x: Buffer, xa: number, xz: number, y: Buffer, ya: number, yz: number): boolean {
  if (xz - xa !== yz - ya) return false;
  for (; xa < xz; xa++, ya++) if (x[xa] !== y[ya]) return false;
  return true;
}

/** AP@k of answer row i against predicted row j (see the module comment); NaN when a row is too long for this path. */
export function averagePrecisionAtKBytes(actual: TextBytes, i: number, predicted: TextBytes, j: number, k: number): number {
  if (k > MAX_K || !split(actual, i, actualTokens, MAX_ACTUAL, true)) return NaN;
  split(predicted, j, predictedTokens, k, false);
  const A = actualTokens;
  const P = predictedTokens;
  let distinct = 0;
  for (let s = 0; s < A.count; s++) {
    let repeat = false;
    for (let r = 0; r < s && !repeat; r++) {
      repeat = A.hash[r] === A.hash[s] && sameToken(A.buf, A.start[r], A.end[r], A.buf, A.start[s], A.end[s]);
    }
    if (!repeat) distinct++;
  }
  if (distinct === 0) return 0;
  let hits = 0;
  let score = 0;
  for (let s = 0; s < P.count; s++) {
    let repeated = false;
    for (let r = 0; r < s && !repeated; r++) {
      repeated = P.hash[r] === P.hash[s] && sameToken(P.buf, P.start[r], P.end[r], P.buf, P.start[s], P.end[s]);
    }
    if (repeated) continue;
    let relevant = false;
    for (let r = 0; r < A.count && !relevant; r++) {
      relevant = A.hash[r] === P.hash[s] && sameToken(A.buf, A.start[r], A.end[r], P.buf, P.start[s], P.end[s]);
    }
    if (relevant) {
      hits++;
      score += hits / (s + 1);
    }
  }
  return score / Math.min(distinct, k);
}

// Levenshtein edit distance (unit-cost insert, delete, substitute), as python-Levenshtein's
// `distance` computes it.

// Edit distance over integer symbols. The shared prefix and suffix are trimmed first (that is where
// near-identical strings spend their length); what is left goes through Hyyrö's bit-parallel form
// of Myers' algorithm, 32 cells per machine operation, so long strings cost O(n·m/32).
function editDistance(a: Int32Array, b: Int32Array): number {
  let start = 0;
  let endA = a.length;
  let endB = b.length;
  while (start < endA && start < endB && a[start] === b[start]) start++;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  let s = a.subarray(start, endA);
  let t = b.subarray(start, endB);
  // The shorter input is the bit-vector pattern: fewer words per column.
  if (s.length < t.length) [s, t] = [t, s];
  if (t.length === 0) return s.length;
  return bitParallelDistance(t, s);
}

/**
 * Levenshtein distance between `pattern` and `text` by bit vectors over the DP's vertical deltas
 * (Hyyrö 2003, blocks of 32 rows with carries between them).
 */
function bitParallelDistance(pattern: Int32Array, text: Int32Array): number {
  const m = pattern.length;
  const words = (m + 31) >>> 5;
  // Peq[c]: the rows of the pattern holding symbol c, one bit each.
  const peq = new Map<number, Uint32Array>();
  for (let i = 0; i < m; i++) {
    let mask = peq.get(pattern[i]);
    if (!mask) peq.set(pattern[i], (mask = new Uint32Array(words)));
    mask[i >>> 5] |= 1 << (i & 31);
  }
  const none = new Uint32Array(words);
  const pv = new Uint32Array(words).fill(0xffffffff);
  const mv = new Uint32Array(words);
  const lastBit = 1 << ((m - 1) & 31);
  let score = m;
  for (let j = 0; j < text.length; j++) {
    const eqs = peq.get(text[j]) ?? none;
    // Row 0 of the DP grows by one per column: a +1 horizontal delta enters the first block.
    let hin = 1;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const eq = eqs[w];
      const p = pv[w];
      const n = mv[w];
      const xv = (eq | n) >>> 0;
      const sum = ((eq & p) >>> 0) + p + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      const xh = (((sum >>> 0) ^ p) | eq) >>> 0;
      let ph = (n | ~(xh | p)) >>> 0;
      let mh = (p & xh) >>> 0;
      const top = w === words - 1 ? lastBit : 0x80000000;
      const hout = ph & top ? 1 : mh & top ? -1 : 0;
      ph = ((ph << 1) | (hin > 0 ? 1 : 0)) >>> 0;
      mh = ((mh << 1) | (hin < 0 ? 1 : 0)) >>> 0;
      pv[w] = (mh | ~(xv | ph)) >>> 0;
      mv[w] = (ph & xv) >>> 0;
      hin = hout;
    }
    score += hin;
  }
  return score;
}

function codePoints(s: string): Int32Array {
  const out = new Int32Array(s.length);
  let n = 0;
  // for..of walks code points; a lone surrogate comes through as its own symbol, as in Python.
  for (const ch of s) out[n++] = ch.codePointAt(0) as number;
  return out.subarray(0, n);
}

/** Edit distance between two strings counted in Unicode code points (python-Levenshtein `distance`). */
export function levenshtein(a: string, b: string): number {
  return editDistance(codePoints(a), codePoints(b));
}

/** Edit distance between two token sequences; tokens match under Map-key equality (=== except NaN matches NaN). */
export function levenshteinSeq<T>(a: readonly T[], b: readonly T[]): number {
  // Intern tokens to small integers so the inner loop compares numbers only.
  const ids = new Map<T, number>();
  const intern = (xs: readonly T[]): Int32Array => {
    const out = new Int32Array(xs.length);
    for (let i = 0; i < xs.length; i++) {
      let id = ids.get(xs[i]);
      if (id === undefined) {
        id = ids.size;
        ids.set(xs[i], id);
      }
      out[i] = id;
    }
    return out;
  };
  return editDistance(intern(a), intern(b));
}

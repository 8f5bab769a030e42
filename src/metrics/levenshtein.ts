// Levenshtein edit distance (unit-cost insert, delete, substitute), as python-Levenshtein's
// `distance` computes it.

// Two-row dynamic programme over integer symbols, after trimming the shared prefix and suffix,
// which is where most near-identical strings spend their length.
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
  // Keep the row along the shorter input: less memory, same result.
  if (s.length < t.length) [s, t] = [t, s];
  const m = t.length;
  if (m === 0) return s.length;
  const row = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) row[j] = j;
  for (let i = 1; i <= s.length; i++) {
    const si = s[i - 1];
    let diag = row[0];
    row[0] = i;
    for (let j = 1; j <= m; j++) {
      const up = row[j];
      let best = diag + (si === t[j - 1] ? 0 : 1);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[m];
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

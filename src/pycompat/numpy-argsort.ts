/**
 * numpy 1.24's `argsort(kind="quicksort")` (an introsort: median-of-three quicksort, insertion
 * sort below 16 elements, heapsort when too deep). It is not stable, and pandas' default
 * `sort_values` uses it, so which of several equal keys comes first must match numpy's choice.
 * Object arrays (Python strings, say) take the same algorithm with Python's `<` as the comparison.
 */

const SMALL_QUICKSORT = 15;

// Index of the highest set bit (numpy's npy_get_msb).
function msb(n: number): number {
  let depth = 0;
  while ((n = Math.floor(n / 2)) > 0) depth++;
  return depth;
}

// numpy's aheapsort_ on tosort[lo, lo + n), with heap positions counted from 1.
function heapsort(less: Less, a: number[], lo: number, n: number): void {
  const at = (k: number) => lo + k - 1;
  const sift = (start: number, size: number, tmp: number) => {
    let i = start;
    let j = start * 2;
    while (j <= size) {
      if (j < size && less(a[at(j)], a[at(j + 1)])) j += 1;
      if (less(tmp, a[at(j)])) {
        a[at(i)] = a[at(j)];
        i = j;
        j += j;
      } else break;
    }
    a[at(i)] = tmp;
  };
  for (let l = n >> 1; l > 0; --l) sift(l, n, a[at(l)]);
  for (let size = n; size > 1; ) {
    const tmp = a[at(size)];
    a[at(size)] = a[at(1)];
    size -= 1;
    sift(1, size, tmp);
  }
}

/** Whether element i sorts before element j. */
type Less = (i: number, j: number) => boolean;

/** Positions that sort `v` ascending, in the order numpy's quicksort argsort gives (v holds no NaN). */
export function numpyQuickArgsort(v: ArrayLike<number>): number[] {
  return numpyQuickArgsortBy(v.length, (i, j) => v[i] < v[j]);
}

/** Positions 0..num-1 in the order numpy's quicksort argsort gives for the comparison `less`. */
export function numpyQuickArgsortBy(num: number, less: Less): number[] {
  const a = Array.from({ length: num }, (_, i) => i);
  if (num < 2) return a;
  const swap = (i: number, j: number) => {
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  };
  const stack: number[] = [];
  const depths: number[] = [];
  let pl = 0;
  let pr = num - 1;
  let cdepth = msb(num) * 2;
  for (;;) {
    if (cdepth < 0) {
      heapsort(less, a, pl, pr - pl + 1);
    } else {
      while (pr - pl > SMALL_QUICKSORT) {
        const pm = pl + ((pr - pl) >> 1);
        if (less(a[pm], a[pl])) swap(pm, pl);
        if (less(a[pr], a[pm])) swap(pr, pm);
        if (less(a[pm], a[pl])) swap(pm, pl);
        const vp = a[pm];
        let pi = pl;
        let pj = pr - 1;
        swap(pm, pj);
        for (;;) {
          do ++pi;
          while (less(a[pi], vp));
          do --pj;
          while (less(vp, a[pj]));
          if (pi >= pj) break;
          swap(pi, pj);
        }
        swap(pi, pr - 1);
        // The larger side waits on the stack, as in numpy, which fixes the order of work.
        if (pi - pl < pr - pi) {
          stack.push(pi + 1, pr);
          pr = pi - 1;
        } else {
          stack.push(pl, pi - 1);
          pl = pi + 1;
        }
        depths.push(--cdepth);
      }
      for (let pi = pl + 1; pi <= pr; ++pi) {
        const vi = a[pi];
        let pj = pi;
        while (pj > pl && less(vi, a[pj - 1])) {
          a[pj] = a[pj - 1];
          pj--;
        }
        a[pj] = vi;
      }
    }
    if (stack.length === 0) break;
    pr = stack.pop()!;
    pl = stack.pop()!;
    cdepth = depths.pop()!;
  }
  return a;
}

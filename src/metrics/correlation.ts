// Correlation coefficients with scipy.stats semantics: the statistic only, no p-value.

import { numpySum } from "./sum.js";
import { rankAverage } from "./rank.js";

function allEqualToFirst(values: ArrayLike<number>): boolean {
  const first = values[0];
  for (let i = 1; i < values.length; i++) if (values[i] !== first) return false;
  // A leading NaN never equals itself, so such an input is not "constant" (it yields NaN later).
  return first === first;
}

// Euclidean norm, scaled by the largest magnitude so huge inputs do not overflow (like BLAS nrm2).
function norm2(values: Float64Array): number {
  let scale = 0;
  for (let i = 0; i < values.length; i++) {
    const a = Math.abs(values[i]);
    if (a > scale || Number.isNaN(a)) scale = a;
  }
  if (scale === 0 || !Number.isFinite(scale)) return scale;
  const squares = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const t = values[i] / scale;
    squares[i] = t * t;
  }
  return scale * Math.sqrt(numpySum(squares));
}

function centred(values: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(values as ArrayLike<number>);
  const mean = numpySum(out) / out.length;
  for (let i = 0; i < out.length; i++) out[i] -= mean;
  return out;
}

function clipUnit(r: number): number {
  return r > 1 ? 1 : r < -1 ? -1 : r;
}

/** Pearson's r (scipy.stats.pearsonr statistic); NaN when either input is constant or contains NaN. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  if (n !== y.length) throw new Error(`pearson: x and y must have the same length (${n} vs ${y.length})`);
  if (n < 2) throw new Error(`pearson: x and y must have length at least 2 (got ${n})`);
  if (allEqualToFirst(x) || allEqualToFirst(y)) return Number.NaN;
  // With two points the line through them is exact; scipy short-circuits to the product of slopes' signs.
  if (n === 2) return Math.sign(x[1] - x[0]) * Math.sign(y[1] - y[0]);
  const xm = centred(x);
  const ym = centred(y);
  const nx = norm2(xm);
  const ny = norm2(ym);
  // Pairwise summation keeps the rounding error near BLAS's blocked dot product for large n.
  const products = new Float64Array(n);
  for (let i = 0; i < n; i++) products[i] = (xm[i] / nx) * (ym[i] / ny);
  return clipUnit(numpySum(products));
}

/** Spearman's rho with average ranks for ties (scipy.stats.spearmanr); NaN for constant, NaN-containing or <2-element input. */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  if (n !== y.length) throw new Error(`spearman: x and y must have the same length (${n} vs ${y.length})`);
  if (n <= 1) return Number.NaN;
  if (allEqualToFirst(x) || allEqualToFirst(y)) return Number.NaN;
  for (let i = 0; i < n; i++) if (Number.isNaN(x[i]) || Number.isNaN(y[i])) return Number.NaN;
  // numpy.corrcoef of the ranks: covariance scaled by 1/(n-1), then divided by each standard deviation.
  const rx = centred(rankAverage(x));
  const ry = centred(rankAverage(y));
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += rx[i] * rx[i];
    syy += ry[i] * ry[i];
    sxy += rx[i] * ry[i];
  }
  const f = 1 / (n - 1);
  return clipUnit((sxy * f) / Math.sqrt(sxx * f) / Math.sqrt(syy * f));
}

// Dense 1-based ranks of values in the given order of indices (equal values share a rank).
function denseRanks(values: ArrayLike<number>, order: Uint32Array): Int32Array {
  const dense = new Int32Array(values.length);
  let r = 0;
  for (let k = 0; k < order.length; k++) {
    if (k === 0 || values[order[k]] !== values[order[k - 1]]) r++;
    dense[order[k]] = r;
  }
  return dense;
}

// Sum over tie groups of c*(c-1)/2, i.e. the number of pairs tied on these ranks.
function tiedPairs(ranks: Int32Array, maxRank: number): number {
  const counts = new Float64Array(maxRank + 1);
  for (let i = 0; i < ranks.length; i++) counts[ranks[i]]++;
  let t = 0;
  for (let r = 1; r <= maxRank; r++) t += (counts[r] * (counts[r] - 1)) / 2;
  return t;
}

/** Kendall's tau-b (scipy.stats.kendalltau), O(n log n); NaN for empty, NaN-containing or constant input. */
export function kendallTau(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  if (n !== y.length) {
    throw new Error(`kendallTau: all inputs must be of the same size, found x-size ${n} and y-size ${y.length}`);
  }
  if (n === 0) return Number.NaN;
  for (let i = 0; i < n; i++) if (Number.isNaN(x[i]) || Number.isNaN(y[i])) return Number.NaN;

  const byY = new Uint32Array(n);
  for (let i = 0; i < n; i++) byY[i] = i;
  byY.sort((a, b) => y[a] - y[b] || 0);
  const yr = denseRanks(y, byY);
  const byX = new Uint32Array(n);
  for (let i = 0; i < n; i++) byX[i] = i;
  // Ties in x are ordered by y so that pairs tied in x never count as discordant below.
  byX.sort((a, b) => x[a] - x[b] || yr[a] - yr[b]);
  const xr = denseRanks(x, byX);
  let maxY = 0;
  for (let i = 0; i < n; i++) if (yr[i] > maxY) maxY = yr[i];
  let maxX = 0;
  for (let i = 0; i < n; i++) if (xr[i] > maxX) maxX = xr[i];

  // Discordant pairs = strict inversions of the y ranks in x order, counted with a Fenwick tree.
  const tree = new Int32Array(maxY + 1);
  let discordant = 0;
  for (let k = 0; k < n; k++) {
    const r = yr[byX[k]];
    let notGreater = 0;
    for (let j = r; j > 0; j -= j & -j) notGreater += tree[j];
    discordant += k - notGreater;
    for (let j = r; j <= maxY; j += j & -j) tree[j]++;
  }

  // Pairs tied in both x and y: runs of equal (x, y) in the sorted order.
  let jointTies = 0;
  let run = 1;
  for (let k = 1; k <= n; k++) {
    const same = k < n && xr[byX[k]] === xr[byX[k - 1]] && yr[byX[k]] === yr[byX[k - 1]];
    if (same) run++;
    else {
      jointTies += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  const xTies = tiedPairs(xr, maxX);
  const yTies = tiedPairs(yr, maxY);
  const total = (n * (n - 1)) / 2;
  if (xTies === total || yTies === total) return Number.NaN;
  const concordantMinusDiscordant = total - xTies - yTies + jointTies - 2 * discordant;
  return clipUnit(concordantMinusDiscordant / Math.sqrt(total - xTies) / Math.sqrt(total - yTies));
}

// Directed Hausdorff distance between voxel sets on a 3-D grid, as scipy's directed_hausdorff
// gives it for the same points, computed with an exact distance transform instead of pairwise
// search so that large, nearly identical sets stay cheap.

/** Lower envelope of parabolas f(p) + w·(q − p)² over q = 0..n−1 (Felzenszwalb–Huttenlocher); infinite f(p) are absent sites. */
function envelope(
  f: Float64Array,
  fOffset: number,
  stride: number,
  n: number,
  w: number,
  out: Float64Array,
  sites: Int32Array,
  bounds: Float64Array,
): void {
  let k = -1;
  for (let q = 0; q < n; q++) {
    const fq = f[fOffset + q * stride];
    if (fq === Infinity) continue;
    let s = -Infinity;
    while (k >= 0) {
      const p = sites[k];
      s = (fq + w * q * q - (f[fOffset + p * stride] + w * p * p)) / (2 * w * (q - p));
      if (s > bounds[k]) break;
      k--;
    }
    k++;
    sites[k] = q;
    bounds[k] = k === 0 ? -Infinity : s;
    bounds[k + 1] = Infinity;
  }
  if (k < 0) {
    for (let q = 0; q < n; q++) out[fOffset + q * stride] = Infinity;
    return;
  }
  let j = 0;
  for (let q = 0; q < n; q++) {
    while (bounds[j + 1] < q) j++;
    const p = sites[j];
    out[fOffset + q * stride] = w * (q - p) * (q - p) + f[fOffset + p * stride];
  }
}

/** Indices 0..n−1 of [z, y, x] triples ordered by z (stable), and where each z starts. */
function orderByZ(points: Int32Array, z0: number, depth: number): { order: Int32Array; start: Int32Array } {
  const n = points.length / 3;
  const start = new Int32Array(depth + 1);
  for (let i = 0; i < n; i++) start[points[3 * i] - z0 + 1]++;
  for (let z = 0; z < depth; z++) start[z + 1] += start[z];
  const fill = start.slice(0, depth);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[fill[points[3 * i] - z0]++] = i;
  return { order, start };
}

/** At most this many equally far points are re-measured in floating point, to pick scipy's maximum among ties. */
const MAX_TIES = 16;

/** The grid box holding both point sets, in small integers. */
interface Box {
  z0: number;
  y0: number;
  x0: number;
  depth: number;
  height: number;
  width: number;
}

function boundingBox(a: Int32Array, b: Int32Array): Box {
  let z0 = 0x7fffffff, z1 = -0x7fffffff, y0 = 0x7fffffff, y1 = -0x7fffffff, x0 = 0x7fffffff, x1 = -0x7fffffff;
  for (const pts of [a, b]) {
    for (let i = 0; i < pts.length; i += 3) {
      const z = pts[i], y = pts[i + 1], x = pts[i + 2];
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
    }
  }
  return { z0, y0, x0, depth: z1 - z0 + 1, height: y1 - y0 + 1, width: x1 - x0 + 1 };
}

/** Points grouped by (y, x) column of the box, each column's z values ascending. */
interface Columns {
  start: Int32Array;
  z: Int32Array;
}

function columnsOf(points: Int32Array, box: Box): Columns {
  const n = points.length / 3;
  const cells = box.height * box.width;
  const byZ = orderByZ(points, box.z0, box.depth).order;
  const start = new Int32Array(cells + 1);
  const cell = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    cell[i] = (points[3 * i + 1] - box.y0) * box.width + (points[3 * i + 2] - box.x0);
    start[cell[i] + 1]++;
  }
  for (let c = 0; c < cells; c++) start[c + 1] += start[c];
  const fill = start.slice(0, cells);
  const z = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const i = byZ[k];
    z[fill[cell[i]]++] = points[3 * i];
  }
  return { start, z };
}

/**
 * Directed Hausdorff distance from `from` to `to`: the largest distance from a point of `from`
 * to the nearest point of `to`. Points are integer grid positions as flat [z, y, x] triples, and
 * each coordinate is divided by its axis' divisor before measuring (coordinates normalised by an
 * image shape). The winning distance is re-measured the way scipy does (coordinate quotients,
 * squared differences summed in axis order, square root), so results agree to the last bits.
 * 0 when `from` is empty, Infinity when only `to` is.
 */
export function directedHausdorffGrid(from: Int32Array, to: Int32Array, divisors: readonly [number, number, number]): number {
  if (from.length === 0) return 0;
  if (to.length === 0) return Infinity;
  const box = boundingBox(from, to);
  const [dz, dy, dx] = divisors;
  // Squared distance scaled by (dz·dy·dx)²: integer weights keep the transform exact on real image sizes.
  const weights: [number, number, number] = [(dy * dx) ** 2, (dz * dx) ** 2, (dz * dy) ** 2];
  const target = columnsOf(to, box);
  const { best, ties } = farthestPoints(from, target, box, weights);
  return Math.sqrt(remeasure(from, ties, target, box, divisors, weights, best));
}

/** The largest scaled squared distance from `from` to the target, and (some of) the points at it. */
function farthestPoints(from: Int32Array, target: Columns, box: Box, [wz, wy, wx]: readonly number[]): { best: number; ties: number[] } {
  const { z0, y0, x0, depth, height, width } = box;
  const cells = height * width;
  const colStart = target.start;
  const colZ = target.z;
  const next = colStart.slice(0, cells);
  const fromByZ = orderByZ(from, z0, depth);
  const plane = new Float64Array(cells);
  const rows = new Float64Array(cells);
  const longest = Math.max(height, width);
  const sites = new Int32Array(longest);
  const bounds = new Float64Array(longest + 1);
  let best = -1;
  const ties: number[] = [];
  for (let zi = 0; zi < depth; zi++) {
    const first = fromByZ.start[zi];
    const last = fromByZ.start[zi + 1];
    if (first === last) continue;
    const z = z0 + zi;
    // Distance along z to the column's nearest target point; slices are visited in ascending z.
    for (let c = 0; c < cells; c++) {
      let p = next[c];
      const end = colStart[c + 1];
      while (p < end && colZ[p] < z) p++;
      next[c] = p;
      let d = -1;
      if (p < end) d = colZ[p] - z;
      if (p > colStart[c] && (d < 0 || z - colZ[p - 1] < d)) d = z - colZ[p - 1];
      plane[c] = d < 0 ? Infinity : wz * d * d;
    }
    for (let y = 0; y < height; y++) envelope(plane, y * width, 1, width, wx, rows, sites, bounds);
    for (let x = 0; x < width; x++) envelope(rows, x, width, height, wy, plane, sites, bounds);
    for (let k = first; k < last; k++) {
      const i = fromByZ.order[k];
      const v = plane[(from[3 * i + 1] - y0) * width + (from[3 * i + 2] - x0)];
      if (v > best) {
        best = v;
        ties.length = 0;
        ties.push(i);
      } else if (v === best && ties.length < MAX_TIES) ties.push(i);
    }
  }
  return { best, ties };
}

/**
 * The largest squared distance, in scipy's arithmetic, from the given points to their nearest
 * target points. Only target points within the exact distance along every axis can be nearest
 * (one more step absorbs the square roots' rounding).
 */
function remeasure(
  from: Int32Array,
  points: number[],
  target: Columns,
  box: Box,
  [dz, dy, dx]: readonly number[],
  [wz, wy, wx]: readonly number[],
  best: number,
): number {
  const { y0, x0, height, width } = box;
  const reach = (w: number) => Math.floor(Math.sqrt(best / w)) + 1;
  const rz = reach(wz);
  const ry = reach(wy);
  const rx = reach(wx);
  let worst = 0;
  for (const i of points) {
    const pz = from[3 * i];
    const py = from[3 * i + 1] - y0;
    const px = from[3 * i + 2] - x0;
    // Scipy's arithmetic: coordinate quotients, squared differences summed in axis order.
    const az = pz / dz;
    const ay = from[3 * i + 1] / dy;
    const ax = from[3 * i + 2] / dx;
    let min = Infinity;
    for (let y = Math.max(0, py - ry); y <= Math.min(height - 1, py + ry); y++) {
      for (let x = Math.max(0, px - rx); x <= Math.min(width - 1, px + rx); x++) {
        const c = y * width + x;
        const end = target.start[c + 1];
        const ey = ay - (y + y0) / dy;
        const ex = ax - (x + x0) / dx;
        for (let p = lowerBound(target.z, target.start[c], end, pz - rz); p < end && target.z[p] <= pz + rz; p++) {
          const ez = az - target.z[p] / dz;
          const d = ez * ez + ey * ey + ex * ex;
          if (d < min) min = d;
        }
      }
    }
    worst = Math.max(worst, min);
  }
  return worst;
}

/** First index in sorted values[lo, hi) holding at least `target`. */
function lowerBound(values: Int32Array, lo: number, hi: number, target: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Symmetric Hausdorff distance: the larger of the two directed distances. */
export function hausdorffGrid(a: Int32Array, b: Int32Array, divisors: readonly [number, number, number]): number {
  return Math.max(directedHausdorffGrid(a, b, divisors), directedHausdorffGrid(b, a, divisors));
}

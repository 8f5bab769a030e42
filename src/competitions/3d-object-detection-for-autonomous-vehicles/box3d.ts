/**
 * Lyft's 3-D box geometry: a box stands upright on the ground, so two boxes overlap in the ground
 * rectangle (rotated by the yaw) times the overlap of their vertical extents.
 */
import type { Boxes } from "./boxes.js";

/** One box ready for IoU: ground corners (x0, y0, ..., x3, y3), vertical extent and volume. */
export interface Box3D {
  corners: Float64Array;
  minZ: number;
  maxZ: number;
  volume: number;
  /** Centre and circumradius of the ground rectangle, to skip pairs that cannot touch. */
  cx: number;
  cy: number;
  radius: number;
}

/** numpy's `isclose(x, 0)` with default tolerances. */
function closeToZero(x: number): boolean {
  return Math.abs(x) <= 1e-8;
}

/** Whether (b - a) is orthogonal to (c - a) within upstream's tolerance (corners at index a, b, c). */
function orthogonal(p: Float64Array, a: number, b: number, c: number): boolean {
  const ax = p[2 * a];
  const ay = p[2 * a + 1];
  return closeToZero((p[2 * b] - ax) * (p[2 * c] - ax) + (p[2 * b + 1] - ay) * (p[2 * c + 1] - ay));
}

/**
 * Box `i` as upstream's Box3D builds it, or the reason Box3D refuses it. The yaw goes through a
 * quaternion about the z axis and its rotation matrix, whose first column holds cos and sin of
 * the yaw; the arithmetic follows upstream's, as the corners feed an exact orthogonality check.
 */
export function box3d(boxes: Boxes, i: number): Box3D | string {
  const cx = boxes.cx[i];
  const cy = boxes.cy[i];
  const cz = boxes.cz[i];
  const w = boxes.width[i];
  const l = boxes.length[i];
  const h = boxes.height[i];
  if (Number.isNaN(cx) || Number.isNaN(cy) || Number.isNaN(cz)) return "has a centre that is not a number (nan)";
  if (Number.isNaN(w) || Number.isNaN(l) || Number.isNaN(h)) return "has a size that is not a number (nan)";
  const theta = boxes.yaw[i] / 2;
  const qw = Math.cos(theta);
  const qz = Math.sin(theta);
  if (Number.isNaN(qw) || Number.isNaN(qz)) return "has a yaw that is not a number (nan)";
  if (!(w > 0 && l > 0 && h > 0)) return `has width ${w}, length ${l}, height ${h}; all three must be positive`;
  const cos = qw * qw - qz * qz;
  const sin = qz * qw + qw * qz;
  const corners = new Float64Array([
    cx + (l / 2) * cos + (w / 2) * sin,
    cy + (l / 2) * sin - (w / 2) * cos,
    cx + (l / 2) * cos - (w / 2) * sin,
    cy + (l / 2) * sin + (w / 2) * cos,
    cx - (l / 2) * cos - (w / 2) * sin,
    cy - (l / 2) * sin + (w / 2) * cos,
    cx - (l / 2) * cos + (w / 2) * sin,
    cy - (l / 2) * sin - (w / 2) * cos,
  ]);
  // Upstream asserts that the corners form a rectangle; infinite or huge values fail it.
  if (!(orthogonal(corners, 0, 1, 3) && orthogonal(corners, 1, 0, 2) && orthogonal(corners, 2, 1, 3) && orthogonal(corners, 3, 0, 2))) {
    return `(centre ${cx} ${cy}, width ${w}, length ${l}) does not give a rectangle within numerical tolerance; values must be finite and of a plausible scale`;
  }
  return {
    corners,
    minZ: cz - h / 2,
    maxZ: cz + h / 2,
    volume: w * l * h,
    cx,
    cy,
    radius: Math.hypot(w, l) / 2,
  };
}

/** Signed area of a polygon given as flat (x, y) pairs. */
function signedArea(p: ArrayLike<number>, n: number): number {
  let sum = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) sum += p[2 * j] * p[2 * i + 1] - p[2 * i] * p[2 * j + 1];
  return sum / 2;
}

/**
 * Area of the intersection of two convex polygons (flat (x, y) pairs, either orientation), by
 * clipping the first against each edge of the second. Coordinates are first moved next to the
 * origin: Lyft's are in the thousands of metres, which would cost digits in the products.
 */
export function convexIntersectionArea(a: Float64Array, b: Float64Array): number {
  const ox = b[0];
  const oy = b[1];
  let poly: number[] = [];
  for (let i = 0; i < a.length; i += 2) poly.push(a[i] - ox, a[i + 1] - oy);
  const clip: number[] = [];
  for (let i = 0; i < b.length; i += 2) clip.push(b[i] - ox, b[i + 1] - oy);
  const m = clip.length / 2;
  const orient = signedArea(clip, m) < 0 ? -1 : 1;
  for (let e = 0; e < m && poly.length > 0; e++) {
    const ex = clip[2 * e];
    const ey = clip[2 * e + 1];
    const dx = clip[2 * ((e + 1) % m)] - ex;
    const dy = clip[2 * ((e + 1) % m) + 1] - ey;
    const side = (k: number) => orient * (dx * (poly[2 * k + 1] - ey) - dy * (poly[2 * k] - ex));
    const n = poly.length / 2;
    const next: number[] = [];
    let prev = n - 1;
    let sPrev = side(prev);
    for (let k = 0; k < n; k++) {
      const sCur = side(k);
      if ((sCur >= 0) !== (sPrev >= 0)) {
        const t = sPrev / (sPrev - sCur);
        const px = poly[2 * prev];
        const py = poly[2 * prev + 1];
        next.push(px + t * (poly[2 * k] - px), py + t * (poly[2 * k + 1] - py));
      }
      if (sCur >= 0) next.push(poly[2 * k], poly[2 * k + 1]);
      prev = k;
      sPrev = sCur;
    }
    poly = next;
  }
  return poly.length < 6 ? 0 : Math.abs(signedArea(poly, poly.length / 2));
}

/**
 * Upstream's IoU of a predicted box with a ground-truth box: intersection volume over
 * (predicted volume + true volume - intersection), clipped to [0, 1].
 */
export function iou3d(pred: Box3D, gt: Box3D): number {
  const height = Math.max(0, Math.min(gt.maxZ, pred.maxZ) - Math.max(gt.minZ, pred.minZ));
  let intersection = 0;
  const reach = pred.radius + gt.radius;
  const dx = pred.cx - gt.cx;
  const dy = pred.cy - gt.cy;
  // Boxes whose circumcircles are apart have no common area, and no height overlap means none either.
  if (height > 0 && dx * dx + dy * dy <= reach * reach * (1 + 1e-9)) {
    intersection = height * convexIntersectionArea(pred.corners, gt.corners);
  }
  const iou = intersection / (pred.volume + gt.volume - intersection);
  return iou < 0 ? 0 : iou > 1 ? 1 : iou;
}

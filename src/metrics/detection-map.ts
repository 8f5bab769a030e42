/**
 * Object-detection average precision: box overlap, greedy matching of detections to ground
 * truth in descending confidence, and the two ways upstream turns matches into AP: scikit-learn's
 * `average_precision_score` over (matched, confidence) pairs (PASCAL VOC style; see
 * average-precision.ts) and pycocotools' 101-point interpolated precision (COCO style).
 * Boxes are flat Float64Arrays, 4 numbers a box.
 */
import { averagePrecision } from "./average-precision.js";
import { numpySum } from "./sum.js";

/** Python's `max(a, b)`: the first argument unless the second is strictly greater (NaN never is). */
function pyMax(a: number, b: number): number {
  return b > a ? b : a;
}

/** Python's `min(a, b)`: the first argument unless the second is strictly smaller. */
function pyMin(a: number, b: number): number {
  return b < a ? b : a;
}

/** C's `fmax`: a NaN argument yields the other one. */
function fmax(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return a > b ? a : b;
}

/** C's `fmin`: a NaN argument yields the other one. */
function fmin(a: number, b: number): number {
  if (a !== a) return b;
  if (b !== b) return a;
  return a < b ? a : b;
}

/**
 * IoU of corner boxes (xmin, ymin, xmax, ymax) `a[i..i+4)` and `b[j..j+4)`, evaluated with
 * Python's `max`/`min` so that NaN and inverted coordinates give the values upstream gets.
 */
export function cornerIou(a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): number {
  const ix0 = pyMax(a[i], b[j]);
  const iy0 = pyMax(a[i + 1], b[j + 1]);
  const ix1 = pyMin(a[i + 2], b[j + 2]);
  const iy1 = pyMin(a[i + 3], b[j + 3]);
  const inter = pyMax(0, ix1 - ix0) * pyMax(0, iy1 - iy0);
  const areaA = (a[i + 2] - a[i]) * (a[i + 3] - a[i + 1]);
  const areaB = (b[j + 2] - b[j]) * (b[j + 3] - b[j + 1]);
  const union = areaA + areaB - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * IoU of boxes read as COCO (x, y, width, height), exactly as pycocotools' C routine computes it
 * for a detection `d[i..i+4)` and a non-crowd ground truth `g[j..j+4)`.
 */
export function cocoIou(d: ArrayLike<number>, i: number, g: ArrayLike<number>, j: number): number {
  const w = fmin(d[i + 2] + d[i], g[j + 2] + g[j]) - fmax(d[i], g[j]);
  if (w <= 0) return 0;
  const h = fmin(d[i + 3] + d[i + 1], g[j + 3] + g[j + 1]) - fmax(d[i + 1], g[j + 1]);
  if (h <= 0) return 0;
  const inter = w * h;
  return inter / (d[i + 2] * d[i + 3] + g[j + 2] * g[j + 3] - inter);
}

/**
 * Indices of `scores` by descending score, ties in original order, NaN last: both Python's
 * `sort(reverse=True)` on finite keys and numpy's `argsort(-scores, kind="mergesort")`.
 */
export function descendingOrder(scores: ArrayLike<number>, subset?: ArrayLike<number>): Uint32Array {
  const n = subset ? subset.length : scores.length;
  const key = new Float64Array(n);
  for (let k = 0; k < n; k++) key[k] = scores[subset ? subset[k] : k];
  const pos = new Uint32Array(n);
  for (let k = 0; k < n; k++) pos[k] = k;
  let sorted = true;
  for (let k = 1; k < n && sorted; k++) sorted = key[k - 1] >= key[k];
  if (!sorted) {
    pos.sort((a, b) => {
      const x = key[a];
      const y = key[b];
      if (x > y) return -1;
      if (x < y) return 1;
      const xn = x !== x;
      const yn = y !== y;
      if (xn !== yn) return xn ? 1 : -1;
      return a - b;
    });
  }
  if (subset) for (let k = 0; k < n; k++) pos[k] = subset[pos[k]];
  return pos;
}

/**
 * (matched, confidence) pairs of one class pooled over images, PASCAL VOC style as upstream's
 * SIIM grader builds them: a matched prediction is (1, confidence), an unmatched one
 * (0, confidence), a missed truth (1, 0), and an image with neither truths nor predictions of
 * the class adds a true negative (0, 0) so that AP stays defined.
 */
export class VocPairs {
  readonly isPositive: number[] = [];
  readonly scores: number[] = [];

  /**
   * Add one image: predictions `order` (indices into `predBoxes`/`predScores`, by descending
   * confidence) each take the unmatched truth of highest IoU above `threshold` (strictly; the
   * first of equal IoUs wins). Boxes are corners (xmin, ymin, xmax, ymax).
   */
  addImage(
    predBoxes: ArrayLike<number>,
    predScores: ArrayLike<number>,
    order: ArrayLike<number>,
    gtBoxes: ArrayLike<number>,
    gtIndices: ArrayLike<number>,
    threshold: number,
  ): void {
    const taken = new Uint8Array(gtIndices.length);
    let missed = gtIndices.length;
    for (let p = 0; p < order.length; p++) {
      let best = 0;
      let bestGt = -1;
      for (let g = 0; g < gtIndices.length; g++) {
        if (taken[g]) continue;
        const iou = cornerIou(predBoxes, 4 * order[p], gtBoxes, 4 * gtIndices[g]);
        if (iou > best && iou > threshold) {
          best = iou;
          bestGt = g;
        }
      }
      if (bestGt >= 0) {
        taken[bestGt] = 1;
        missed--;
      }
      this.isPositive.push(bestGt >= 0 ? 1 : 0);
      this.scores.push(predScores[order[p]]);
    }
    for (let g = 0; g < missed; g++) {
      this.isPositive.push(1);
      this.scores.push(0);
    }
    if (order.length === 0 && gtIndices.length === 0) {
      this.isPositive.push(0);
      this.scores.push(0);
    }
  }

  /** Whether some pair is negative; without one, AP is undefined. */
  hasNegative(): boolean {
    return this.isPositive.includes(0);
  }

  /** scikit-learn's `average_precision_score` of the pairs. */
  averagePrecision(): number {
    return averagePrecision(this.isPositive, this.scores);
  }
}

/** One image and category, as pycocotools' `evaluateImg` leaves it for `accumulate`. */
export interface CocoImageEval {
  /** Detection scores, highest first, at most maxDets of them. */
  scores: Float64Array;
  /** Per detection: the matched ground truth's annotation id, 0 when unmatched. */
  matches: Float64Array;
  /** Per detection: 1 when it does not count (matched an ignored truth, or unmatched and out of area range). */
  ignored: Uint8Array;
  /** Ground truths that count (not ignored). */
  truthsCounted: number;
}

/** Ground truths and detections of one image and category, boxes in COCO's (x, y, w, h) slots. */
export interface CocoImageInput {
  gtBoxes: ArrayLike<number>;
  gtAreas: ArrayLike<number>;
  gtIds: ArrayLike<number>;
  dtBoxes: ArrayLike<number>;
  dtAreas: ArrayLike<number>;
  dtScores: ArrayLike<number>;
  dtIds: ArrayLike<number>;
}

/** Settings shared by every image of a COCO evaluation (a single IoU threshold, one area range). */
export interface CocoSettings {
  iouThreshold: number;
  maxDets: number;
  areaRange: readonly [number, number];
}

/**
 * pycocotools' `evaluateImg` for one IoU threshold and non-crowd truths; null where the image
 * has neither truths nor detections. Matches are recorded by annotation id and "matched" is
 * tested as id > 0, so the annotation with id 0 behaves as unmatched on both sides.
 */
export function cocoEvaluateImage(input: CocoImageInput, settings: CocoSettings): CocoImageEval | null {
  const { gtBoxes, gtAreas, gtIds, dtBoxes, dtAreas, dtScores, dtIds } = input;
  const nGt = gtIds.length;
  if (nGt === 0 && dtIds.length === 0) return null;
  const [lo, hi] = settings.areaRange;

  // Truths outside the area range are ignored and move (stably) behind the others.
  const gtOrder: number[] = [];
  const gtIgnore = new Uint8Array(nGt);
  for (let g = 0; g < nGt; g++) gtIgnore[g] = gtAreas[g] < lo || gtAreas[g] > hi ? 1 : 0;
  for (let g = 0; g < nGt; g++) if (!gtIgnore[g]) gtOrder.push(g);
  const truthsCounted = gtOrder.length;
  for (let g = 0; g < nGt; g++) if (gtIgnore[g]) gtOrder.push(g);

  const order = descendingOrder(dtScores);
  const nDt = Math.min(order.length, settings.maxDets);
  const scores = new Float64Array(nDt);
  const matches = new Float64Array(nDt);
  const ignored = new Uint8Array(nDt);
  const gtMatchedBy = new Float64Array(nGt);
  const threshold = Math.min(settings.iouThreshold, 1 - 1e-10);
  for (let k = 0; k < nDt; k++) {
    const d = order[k];
    scores[k] = dtScores[d];
    if (nGt === 0) continue;
    let best = threshold;
    let m = -1;
    for (let gi = 0; gi < nGt; gi++) {
      const g = gtOrder[gi];
      if (gtMatchedBy[g] > 0) continue;
      if (m > -1 && !gtIgnore[m] && gtIgnore[g]) break;
      const iou = cocoIou(dtBoxes, 4 * d, gtBoxes, 4 * g);
      // pycocotools skips only when strictly below, so a NaN IoU counts as a match.
      if (iou < best) continue;
      best = iou;
      m = g;
    }
    if (m === -1) continue;
    ignored[k] = gtIgnore[m];
    matches[k] = gtIds[m];
    gtMatchedBy[m] = dtIds[d];
  }
  for (let k = 0; k < nDt; k++) {
    const area = dtAreas[order[k]];
    if (matches[k] === 0 && (area < lo || area > hi)) ignored[k] = 1;
  }
  return { scores, matches, ignored, truthsCounted };
}

/** COCO's recall thresholds 0, 0.01, ..., 1 (numpy's `linspace(0, 1, 101)`). */
export const COCO_RECALL_THRESHOLDS: Float64Array = (() => {
  const t = new Float64Array(101);
  for (let i = 0; i < 101; i++) t[i] = i * 0.01;
  t[100] = 1;
  return t;
})();

/**
 * pycocotools' `accumulate` for one category: detections of all images (in image order) ranked
 * by score, the precision envelope sampled at the 101 recall thresholds. Null where no truth
 * counts (pycocotools leaves -1 there and the category drops out of the mean).
 */
export function cocoPrecisionCurve(images: readonly CocoImageEval[], maxDets: number): Float64Array | null {
  let truths = 0;
  let total = 0;
  for (const e of images) {
    truths += e.truthsCounted;
    total += Math.min(e.scores.length, maxDets);
  }
  if (truths === 0) return null;
  const scores = new Float64Array(total);
  const matched = new Uint8Array(total);
  const ignored = new Uint8Array(total);
  let at = 0;
  for (const e of images) {
    const n = Math.min(e.scores.length, maxDets);
    for (let k = 0; k < n; k++, at++) {
      scores[at] = e.scores[k];
      matched[at] = e.matches[k] !== 0 ? 1 : 0;
      ignored[at] = e.ignored[k];
    }
  }
  const order = descendingOrder(scores);
  const recall = new Float64Array(total);
  const precision = new Float64Array(total);
  let tp = 0;
  let fp = 0;
  for (let k = 0; k < total; k++) {
    const d = order[k];
    if (!ignored[d]) {
      if (matched[d]) tp++;
      else fp++;
    }
    recall[k] = tp / truths;
    precision[k] = tp / (fp + tp + Number.EPSILON);
  }
  for (let k = total - 1; k > 0; k--) if (precision[k] > precision[k - 1]) precision[k - 1] = precision[k];

  // Recall thresholds beyond the last recall reached keep precision 0.
  const q = new Float64Array(COCO_RECALL_THRESHOLDS.length);
  let k = 0;
  for (let r = 0; r < q.length; r++) {
    const thr = COCO_RECALL_THRESHOLDS[r];
    while (k < total && recall[k] < thr) k++;
    if (k >= total) break;
    q[r] = precision[k];
  }
  return q;
}

/**
 * COCO's summary AP: the mean of the precision curves of the categories that have one,
 * summed in numpy's order (recall threshold major, category minor); -1 when none has.
 */
export function cocoMeanPrecision(curves: readonly (Float64Array | null)[]): number {
  const present = curves.filter((c): c is Float64Array => c !== null);
  if (present.length === 0) return -1;
  const r = COCO_RECALL_THRESHOLDS.length;
  const flat = new Float64Array(r * present.length);
  for (let t = 0; t < r; t++) for (let c = 0; c < present.length; c++) flat[t * present.length + c] = present[c][t];
  return numpySum(flat) / flat.length;
}

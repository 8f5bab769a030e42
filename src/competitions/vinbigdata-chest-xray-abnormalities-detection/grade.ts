import type { Answers } from "../../core/competition.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { answersColumn, keyReader, numericInOrder, requireSameIdSet, submissionColumn } from "../../grading/columns.js";
import type { Key } from "../../grading/key-index.js";
import {
  type CocoImageEval,
  type CocoSettings,
  cocoEvaluateImage,
  cocoMeanPrecision,
  cocoPrecisionCurve,
} from "../../metrics/detection-map.js";
import { parseDetections } from "./detections.js";

const SETTINGS: CocoSettings = { iouThreshold: 0.4, maxDets: 100, areaRange: [0, 1e10] };

/** Items grouped by category then image (stable): the permutation and each group's start. */
function groupBy(cat: Int32Array, img: Int32Array, nCat: number, nImg: number): { perm: Uint32Array; start: Uint32Array } {
  const start = new Uint32Array(nCat * nImg + 1);
  for (let i = 0; i < cat.length; i++) start[cat[i] * nImg + img[i] + 1]++;
  for (let g = 0; g < nCat * nImg; g++) start[g + 1] += start[g];
  const fill = start.slice(0, nCat * nImg);
  const perm = new Uint32Array(cat.length);
  for (let i = 0; i < cat.length; i++) perm[fill[cat[i] * nImg + img[i]]++] = i;
  return { perm, start };
}

/** `values` (with `width` numbers per item) in the order of `perm`. */
function permute(values: ArrayLike<number>, perm: Uint32Array, width: number): Float64Array {
  const out = new Float64Array(perm.length * width);
  for (let k = 0; k < perm.length; k++) for (let w = 0; w < width; w++) out[k * width + w] = values[perm[k] * width + w];
  return out;
}

/**
 * pycocotools' bbox AP at IoU 0.4 (all areas, 100 detections per image and class), set up as
 * upstream does: corner boxes are passed where COCO expects (x, y, width, height), on both sides,
 * so overlaps are those of the boxes [x_min, x_min + x_max] x [y_min, y_min + y_max]; annotation
 * ids count from 0 in answers order (images by first appearance) and in submission order, and
 * pycocotools reads id 0 as "unmatched": a detection matched to the first truth counts as a
 * false positive (the gold submission scores below 1), and the truth matched by the first
 * detection stays free for a second match. Categories are the answers' class ids.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const n = ans.rowCount;
  const ansImage = answersColumn(ans, "image_id");
  const ansClass = numericInOrder(answersColumn(ans, "class_id"), null, "class_id");
  const coords = ["x_min", "y_min", "x_max", "y_max"].map((c) => {
    const v = numericInOrder(answersColumn(ans, c), null, c);
    if (v.some((x) => Number.isNaN(x))) throw new Error(`Answers must not hold missing values in "${c}".`);
    return v;
  });
  const subPred = submissionColumn(submission, "PredictionString");
  const subImage = submissionColumn(submission, "image_id");
  requireSameIdSet(subImage, ansImage, "image_id");

  // Images in order of first appearance in the answers, as pandas' unique() lists them.
  const ansKey = keyReader(ansImage);
  const imageIndex = new Map<Key, number>();
  const gtImg = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const key = ansKey(i);
    if (key === undefined) throw new Error(`Answers "image_id" is missing on data row ${i + 1}.`);
    let idx = imageIndex.get(key);
    if (idx === undefined) imageIndex.set(key, (idx = imageIndex.size));
    gtImg[i] = idx;
  }
  const nImg = imageIndex.size;
  const classes = [...new Set(ansClass)].sort((a, b) => a - b);
  const catIndex = new Map<number, number>(classes.map((c, k) => [c, k]));
  const nCat = classes.length;

  const gtCat = new Int32Array(n);
  const gtBoxes = new Float64Array(4 * n);
  const gtAreas = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    gtCat[i] = catIndex.get(ansClass[i]) as number;
    for (let c = 0; c < 4; c++) gtBoxes[4 * i + c] = coords[c][i];
    gtAreas[i] = (coords[2][i] - coords[0][i]) * (coords[3][i] - coords[1][i]);
  }
  // Truth ids run over images in order, rows in file order within an image.
  const byImage = groupBy(new Int32Array(n), gtImg, 1, nImg).perm;
  const gtIds = new Float64Array(n);
  for (let k = 0; k < n; k++) gtIds[byImage[k]] = k;

  const subKey = keyReader(subImage);
  const dets = parseDetections(subPred, (row) => imageIndex.get(subKey(row) as Key) as number, catIndex);

  const gt = groupBy(gtCat, gtImg, nCat, nImg);
  const gtBoxesG = permute(gtBoxes, gt.perm, 4);
  const gtAreasG = permute(gtAreas, gt.perm, 1);
  const gtIdsG = permute(gtIds, gt.perm, 1);
  const dt = groupBy(dets.category, dets.image, nCat, nImg);
  const dtBoxesG = permute(dets.boxes, dt.perm, 4);
  const dtAreasG = permute(dets.areas, dt.perm, 1);
  const dtScoresG = permute(dets.scores, dt.perm, 1);
  const dtIdsG = permute(dets.ids, dt.perm, 1);

  const curves: (Float64Array | null)[] = [];
  for (let c = 0; c < nCat; c++) {
    const images: CocoImageEval[] = [];
    for (let im = 0; im < nImg; im++) {
      const g = c * nImg + im;
      const [g0, g1] = [gt.start[g], gt.start[g + 1]];
      const [d0, d1] = [dt.start[g], dt.start[g + 1]];
      const result = cocoEvaluateImage(
        {
          gtBoxes: gtBoxesG.subarray(4 * g0, 4 * g1),
          gtAreas: gtAreasG.subarray(g0, g1),
          gtIds: gtIdsG.subarray(g0, g1),
          dtBoxes: dtBoxesG.subarray(4 * d0, 4 * d1),
          dtAreas: dtAreasG.subarray(d0, d1),
          dtScores: dtScoresG.subarray(d0, d1),
          dtIds: dtIdsG.subarray(d0, d1),
        },
        SETTINGS,
      );
      if (result) images.push(result);
    }
    curves.push(images.length > 0 ? cocoPrecisionCurve(images, SETTINGS.maxDets) : null);
  }
  return cocoMeanPrecision(curves);
}

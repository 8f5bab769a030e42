// Kuzushiji's F1: a predicted character counts when its label matches and its centre point lies
// strictly inside an unclaimed ground-truth box.

import { pyFloat } from "../../pycompat/pynum.js";

/** True positives, false positives and false negatives pooled over pages. */
export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

/** Labels and coordinates of "label x y ..." groups (3 fields for points, 5 for boxes), or the first token that is not a number. */
function parseGroups(fields: string[], width: number, numeric: number): { labels: string[]; values: Float64Array } | string {
  const n = fields.length / width;
  const labels: string[] = new Array(n);
  const values = new Float64Array(n * numeric);
  for (let g = 0; g < n; g++) {
    labels[g] = fields[g * width];
    for (let k = 0; k < numeric; k++) {
      const token = fields[g * width + 1 + k];
      const v = pyFloat(token);
      if (v === null) return token;
      values[g * numeric + k] = v;
    }
  }
  return { labels, values };
}

/**
 * Adds one page's counts. `pred` holds "label x y" triples and `truth` "label x y width height"
 * boxes, both split on single spaces (null: nothing on the page). Boxes are matched in order, each
 * to the first unused prediction inside it. A page with no boxes counts every prediction as false;
 * an empty prediction counts one miss per five fields of the truth.
 */
export function addPageCounts(counts: Counts, pred: string | null, truth: string | null): void {
  if (truth === null) {
    if (pred !== null) counts.fp += Math.floor(pred.split(" ").length / 3);
    return;
  }
  const truthFields = truth.split(" ");
  if (pred === null) {
    counts.fn += Math.floor(truthFields.length / 5);
    return;
  }
  if (truthFields.length % 5 !== 0) throw new Error(`Answers hold a malformed labels string: ${JSON.stringify(truth.slice(0, 60))}`);
  const boxes = parseGroups(truthFields, 5, 4);
  if (typeof boxes === "string") throw new Error(`Answers hold a non-numeric box field ${JSON.stringify(boxes)}`);
  const points = parseGroups(pred.split(" "), 3, 2);
  if (typeof points === "string") throw new Error(`prediction coordinate ${JSON.stringify(points)} is not a number`);

  // Predictions by label, in order, so each box scans only the candidates that could match it.
  const byLabel = new Map<string, number[]>();
  points.labels.forEach((label, i) => {
    const list = byLabel.get(label);
    if (list) list.push(i);
    else byLabel.set(label, [i]);
  });
  const used = new Uint8Array(points.labels.length);
  let tp = 0;
  const p = points.values;
  const b = boxes.values;
  for (let j = 0; j < boxes.labels.length; j++) {
    const xmin = b[4 * j];
    const ymin = b[4 * j + 1];
    const xmax = xmin + b[4 * j + 2];
    const ymax = ymin + b[4 * j + 3];
    let hit = -1;
    for (const i of byLabel.get(boxes.labels[j]) ?? []) {
      if (used[i]) continue;
      const x = p[2 * i];
      const y = p[2 * i + 1];
      if (xmin < x && xmax > x && ymin < y && ymax > y) {
        hit = i;
        break;
      }
    }
    if (hit >= 0) {
      used[hit] = 1;
      tp++;
    } else counts.fn++;
  }
  counts.tp += tp;
  counts.fp += points.labels.length - tp;
}

/** F1 of the pooled counts; 0 when there is nothing to score or no true positive. */
export function f1FromCounts({ tp, fp, fn }: Counts): number {
  if (tp + fp === 0 || tp + fn === 0) return 0;
  const precision = tp / (tp + fp);
  const recall = tp / (tp + fn);
  if (!(precision > 0 && recall > 0)) return 0;
  return (2 * precision * recall) / (precision + recall);
}

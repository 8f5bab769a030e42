import { InvalidSubmissionError } from "../../core/errors.js";
import type { Column } from "../../core/table.js";
import { cellText } from "../../grading/columns.js";
import { pyFloat } from "../../pycompat/pynum.js";

/** The submission's detections of scored classes, in submission order. */
export interface Detections {
  /** Index of the detection's class among the answers' classes. */
  category: Int32Array;
  image: Int32Array;
  scores: Float64Array;
  /** The four coordinates as written (x_min, y_min, x_max, y_max). */
  boxes: Float64Array;
  /** (x_max - x_min) * (y_max - y_min), as upstream records it. */
  areas: Float64Array;
  /** Annotation id: the position among all of the submission's boxes, scored or not. */
  ids: Float64Array;
}

/** Growable float64 storage. */
class Floats {
  data = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  view(): Float64Array {
    return this.data.subarray(0, this.length);
  }
}

function reject(row: number, what: string): never {
  throw new InvalidSubmissionError(`Submission "PredictionString" on data row ${row + 1} ${what}.`);
}

/**
 * Parse every row's "class confidence x_min y_min x_max y_max ..." string as upstream does:
 * split on single spaces, every token a Python float, the class truncated to an integer.
 * Boxes of classes absent from the answers are dropped but still take an annotation id.
 */
export function parseDetections(
  col: Column,
  imageOf: (row: number) => number,
  catIndex: ReadonlyMap<number, number>,
): Detections {
  if (col.kind !== "string") {
    throw new InvalidSubmissionError(
      `Submission "PredictionString" must hold text like "14 1 0 0 1 1"; it was read as ${col.kind} values.`,
    );
  }
  const category = new Floats();
  const image = new Floats();
  const scores = new Floats();
  const boxes = new Floats();
  const areas = new Floats();
  const ids = new Floats();
  let values = new Float64Array(60);
  let id = 0;
  for (let row = 0; row < col.values.length; row++) {
    const text = col.values[row];
    if (text === null) reject(row, "is missing; write at least one box (e.g. \"14 1 0 0 1 1\" for no finding)");
    const toks = text.split(" ");
    if (toks.length > values.length) values = new Float64Array(2 * toks.length);
    for (let t = 0; t < toks.length; t++) {
      const v = pyFloat(toks[t]);
      if (v === null) {
        reject(row, `holds ${cellText(toks[t])} where a number is expected (values are separated by single spaces)`);
      }
      values[t] = v;
    }
    if (toks.length % 6 !== 0) reject(row, `has ${toks.length} values; it must hold 6 per box`);
    const img = imageOf(row);
    for (let b = 0; b < toks.length; b += 6, id++) {
      if (!Number.isFinite(values[b])) {
        reject(row, `has class ${cellText(toks[b])} in box ${b / 6 + 1}; the class must be a finite number`);
      }
      const cat = catIndex.get(Math.trunc(values[b]));
      if (cat === undefined) continue;
      category.push(cat);
      image.push(img);
      scores.push(values[b + 1]);
      for (let k = 2; k < 6; k++) boxes.push(values[b + k]);
      areas.push((values[b + 4] - values[b + 2]) * (values[b + 5] - values[b + 3]));
      ids.push(id);
    }
  }
  return {
    category: Int32Array.from(category.view()),
    image: Int32Array.from(image.view()),
    scores: scores.view(),
    boxes: boxes.view(),
    areas: areas.view(),
    ids: ids.view(),
  };
}

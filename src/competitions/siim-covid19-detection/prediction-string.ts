import { pyFloat } from "../../pycompat/pynum.js";
import { pySplit } from "../../pycompat/pystr.js";

/** Boxes of one row: a label, a confidence and corner coordinates per box. */
export interface LabelledBoxes {
  labels: string[];
  confidences: Float64Array;
  /** xmin, ymin, xmax, ymax per box. */
  boxes: Float64Array;
}

/**
 * Parse "label confidence xmin ymin xmax ymax ..." split on any whitespace, as upstream does;
 * returns an error message (what is wrong, in words) instead of throwing.
 */
export function parseLabelledBoxes(text: string): LabelledBoxes | string {
  const toks = pySplit(text);
  const n = Math.floor(toks.length / 6);
  if (toks.length % 6 !== 0) {
    return `has ${toks.length} values; it must hold 6 per box ("label confidence xmin ymin xmax ymax")`;
  }
  const labels: string[] = new Array(n);
  const confidences = new Float64Array(n);
  const boxes = new Float64Array(4 * n);
  for (let b = 0; b < n; b++) {
    labels[b] = toks[6 * b];
    for (let k = 1; k < 6; k++) {
      const v = pyFloat(toks[6 * b + k]);
      if (v === null) {
        return `has ${JSON.stringify(toks[6 * b + k])} in box ${b + 1} where a number is expected`;
      }
      if (k === 1) confidences[b] = v;
      else boxes[4 * b + k - 2] = v;
    }
  }
  return { labels, confidences, boxes };
}

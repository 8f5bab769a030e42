/** PredictionString parsing: nine space-separated tokens per box, as upstream reads them. */
import { InvalidSubmissionError } from "../../core/errors.js";
import { pyFloat } from "../../pycompat/pynum.js";
import { pyStrip } from "../../pycompat/pystr.js";

/** Tokens per box: confidence, centre x y z, width, length, height, yaw, class name. */
export const TOKENS_PER_BOX = 9;

const FIELDS = ["confidence", "center_x", "center_y", "center_z", "width", "length", "height", "yaw"] as const;

/** The boxes of one sample, one entry per box in string order. */
export interface Boxes {
  count: number;
  score: Float64Array;
  cx: Float64Array;
  cy: Float64Array;
  cz: Float64Array;
  width: Float64Array;
  length: Float64Array;
  height: Float64Array;
  yaw: Float64Array;
  name: string[];
}

/** A sample without boxes. */
export function noBoxes(): Boxes {
  return boxesOf(0);
}

function boxesOf(n: number): Boxes {
  const f = () => new Float64Array(n);
  return { count: n, score: f(), cx: f(), cy: f(), cz: f(), width: f(), length: f(), height: f(), yaw: f(), name: new Array<string>(n) };
}

/**
 * Parse one PredictionString. Blank text means no boxes; otherwise the text is split on single
 * spaces (as upstream's `split(" ")`, so doubled or edge spaces make empty tokens that fail), and
 * every numeric token must be something Python's float() reads. `where` names the row in messages.
 */
export function parseBoxes(text: string, where: string): Boxes {
  if (pyStrip(text) === "") return noBoxes();
  const tokens = text.split(" ");
  if (tokens.length % TOKENS_PER_BOX !== 0) {
    throw new InvalidSubmissionError(
      `PredictionString of ${where} has ${tokens.length} space-separated tokens, not a multiple of ${TOKENS_PER_BOX}: ` +
        `each box is "confidence center_x center_y center_z width length height yaw class_name", boxes and tokens ` +
        `separated by single spaces.`,
    );
  }
  const n = tokens.length / TOKENS_PER_BOX;
  const out = boxesOf(n);
  const columns = [out.score, out.cx, out.cy, out.cz, out.width, out.length, out.height, out.yaw];
  for (let b = 0; b < n; b++) {
    const base = b * TOKENS_PER_BOX;
    for (let f = 0; f < FIELDS.length; f++) {
      const v = pyFloat(tokens[base + f]);
      if (v === null) {
        throw new InvalidSubmissionError(
          `PredictionString of ${where}: box ${b + 1} has ${FIELDS[f]} ${JSON.stringify(tokens[base + f])}, which is not a number ` +
            `(token ${base + f + 1}; tokens are separated by single spaces).`,
        );
      }
      columns[f][b] = v;
    }
    // Upstream turns the yaw into a quaternion with math.cos, which raises on an infinite angle.
    if (!Number.isFinite(out.yaw[b]) && !Number.isNaN(out.yaw[b])) {
      throw new InvalidSubmissionError(`PredictionString of ${where}: box ${b + 1} has an infinite yaw; the yaw is an angle in radians.`);
    }
    out.name[b] = tokens[base + FIELDS.length];
  }
  return out;
}

import { pyStrip } from "../../pycompat/pystr.js";
import { pyInt } from "../../pycompat/pynum.js";
import { spanKey, textKey } from "./gold-answers.js";

/** A parsed PredictionString: blank, or the key of the answer it names; or why it cannot be read. */
export type Prediction = { blank: true } | { blank: false; key: string } | { error: string };

/**
 * Read a PredictionString as upstream does: stripped, then either "start:end" (each side one
 * Python int, so " 12 : 34 " and "0012:34" are the span 12-34), "YES", "NO", or empty.
 */
export function parsePrediction(text: string): Prediction {
  const pred = pyStrip(text);
  const parts = pred.split(":");
  if (parts.length === 2) {
    const start = pyInt(parts[0]);
    const end = pyInt(parts[1]);
    if (start === null || end === null) {
      return { error: `"${pred}" is not a token span: both sides of ":" must be integers` };
    }
    return { blank: false, key: spanKey(start, end) };
  }
  if (pred === "") return { blank: true };
  if (pred === "YES" || pred === "NO") return { blank: false, key: textKey(pred) };
  return { error: `"${pred.length > 60 ? pred.slice(0, 57) + "..." : pred}" is not "start_token:end_token", "YES", "NO" or empty` };
}

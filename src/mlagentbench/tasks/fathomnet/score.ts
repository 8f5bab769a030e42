import { InvalidSubmissionError, UserError } from "../../../core/errors.js";
import type { Table } from "../../../core/table.js";
import { averagePrecisionAtK } from "../../../metrics/map-at-k.js";
import { numpySum } from "../../../metrics/sum.js";
import { rocAuc } from "../../../metrics/roc-auc.js";
import { alignRows, numbersAt, range, submissionColumn, textCells } from "../kaggle-data.js";

/** Predicted categories beyond this many are not scored. */
export const MAX_CATEGORIES = 20;

/** The integer categories of an answer cell, written by the competition as a list of floats: "[1.0, 9.0]". */
export function answerCategories(cell: string | null, row: number): string[] {
  const inner = (cell ?? "").trim().replace(/^\[/, "").replace(/\]$/, "");
  const out: string[] = [];
  for (const token of inner.split(",")) {
    const t = token.trim();
    if (t === "") continue;
    const v = Number(t);
    if (!Number.isInteger(v)) throw new UserError(`answer.csv row ${row + 1}: category "${t}" is not an integer`);
    out.push(String(v));
  }
  return out;
}

/** The categories of a submission cell: integers separated by spaces, most likely first ("" for none). */
export function submittedCategories(cell: string | null, row: number): string[] {
  if (cell === null) return [];
  const out: string[] = [];
  for (const token of cell.trim().split(/\s+/)) {
    if (token === "") continue;
    const v = Number(token);
    if (!Number.isInteger(v)) {
      throw new InvalidSubmissionError(`submission.csv row ${row + 1}: categories must be integers separated by spaces, got "${token}"`);
    }
    out.push(String(v));
  }
  return out;
}

/**
 * The FathomNet 2023 score: half of (2·AUC − 1) of the out-of-sample scores plus MAP@20 of the
 * category lists, with submission rows matched to the answers by id.
 */
export function fathomnetScore(answers: Table, submission: Table): number {
  const ids = textCells(answers.data.get("id")!) as string[];
  const rows = alignRows(submission, "id", ids);
  const truthOsd = numbersAt(answers, "osd", range(0, ids.length), "answer.csv");
  const predictedOsd = numbersAt(submission, "osd", rows);
  const auc = rocAuc(truthOsd, predictedOsd);
  const truthCats = textCells(answers.data.get("categories")!);
  const predictedCats = textCells(submissionColumn(submission, "categories"));
  const ap = Float64Array.from(ids, (_, k) =>
    averagePrecisionAtK(new Set(answerCategories(truthCats[k], k)), submittedCategories(predictedCats[rows[k]], rows[k]), MAX_CATEGORIES),
  );
  const map = numpySum(ap) / ap.length;
  return 0.5 * (2 * (auc - 0.5) + map);
}

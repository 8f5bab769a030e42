import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import {
  alignToAnswers,
  answersColumn,
  cellText,
  describeColumns,
  numericInOrder,
  sortOrder,
} from "../../grading/columns.js";
import { pyFloat } from "../../pycompat/pynum.js";
import { rmse } from "../../metrics/regression.js";

/** The three scored targets. */
export const SCORED = ["reactivity", "deg_Mg_pH10", "deg_Mg_50C"] as const;
/** Columns the submission must have: the id, the scored targets and two required but unscored ones. */
const REQUIRED = ["id_seqpos", ...SCORED, "deg_pH10", "deg_50C"] as const;

/**
 * Predictions of the given submission rows as float64. A text column is converted cell by cell,
 * as scikit-learn does for an object array, so text in a row that is never scored does no harm.
 */
function predictions(col: Column, rows: Uint32Array, name: string, ids: Column, ansIds: Column): Float64Array {
  let values: Float64Array;
  if (col.kind === "string") {
    values = new Float64Array(rows.length);
    rows.forEach((row, k) => {
      const v = col.values[row];
      const x = v === null ? NaN : pyFloat(v);
      if (x === null) {
        throw new InvalidSubmissionError(
          `Column "${name}" must hold numbers, but data row ${row + 1} (id_seqpos ${cellText(cellAt(ids, row))}) holds ${cellText(v)}.`,
        );
      }
      values[k] = x;
    });
  } else {
    values = numericInOrder(col, rows, name);
  }
  values.forEach((v, k) => {
    if (Number.isFinite(v)) return;
    const row = rows[k];
    const what = Number.isNaN(v) ? "a missing value (NaN)" : cellText(v);
    const id = cellAt(ids, row);
    // A row's position, not its id, decides whether it is scored (see grade), which surprises.
    const why =
      id === cellAt(ansIds, row)
        ? ""
        : ` It is scored because data row ${row + 1} of the sample submission is a scored position: ` +
          `keep the sample submission's row order.`;
    throw new InvalidSubmissionError(
      `Column "${name}" must hold finite numbers in scored rows, but data row ${row + 1} ` +
        `(id_seqpos ${cellText(id)}) holds ${what}.${why}`,
    );
  });
  return values;
}

/**
 * MCRMSE: the mean over the three scored targets of the RMSE on the rows whose answer has
 * `keep` True. Rows are matched by `id_seqpos`; deg_pH10 and deg_50C must be present but are
 * never read.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "id_seqpos");
  const keepCol = answersColumn(ans, "keep");
  if (keepCol.kind !== "bool") throw new Error('Answers column "keep" must hold True/False.');
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per id_seqpos ` +
        `of the sample submission.`,
    );
  }
  const missing = REQUIRED.filter((c) => !submission.data.has(c));
  if (missing.length > 0) {
    throw new InvalidSubmissionError(
      `Submission is missing the column(s) ${missing.map((c) => JSON.stringify(c)).join(", ")}; it needs ` +
        `${REQUIRED.map((c) => JSON.stringify(c)).join(", ")} (deg_pH10 and deg_50C are not scored but required); ` +
        `found ${describeColumns(submission)}.`,
    );
  }
  const subId = submission.data.get("id_seqpos")!;
  const ansOrder = sortOrder(ansId);
  // Ids are unique, so the submission's rows in answers-sorted order are its rows sorted by id.
  const subOrder = alignToAnswers(subId, ansId, ansOrder, "id_seqpos");
  const keep = keepCol.values;
  // Upstream indexes the id-sorted submission with the id-sorted answers' `keep` Series, which
  // pandas aligns by row label, i.e. by position in the *files*: a submission row is scored when
  // the answers row at the same file position is kept. In the sample submission's row order that
  // is the intended row; in another order other rows are scored, against the kept answers in id
  // order. This changes scores, so it is reproduced.
  const subKept = subOrder.filter((row) => keep[row] === 1);
  const ansKept = ansOrder.filter((row) => keep[row] === 1);
  let total = 0;
  for (const name of SCORED) {
    const truth = numericInOrder(answersColumn(ans, name), ansKept, name);
    total += rmse(truth, predictions(submission.data.get(name)!, subKept, name, subId, ansId));
  }
  return total / SCORED.length;
}

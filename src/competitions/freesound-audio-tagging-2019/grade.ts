import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import type { Table } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { alignToAnswers, answersColumn, describeColumns, numericInOrder, sortOrder } from "../../grading/columns.js";
import { CLASS_NAMES } from "./classes.js";

/**
 * Label-weighted LRAP as scikit-learn computes it with `sample_weight`: each row's average
 * precision of its relevant labels (ties share the worst rank; a row whose labels are all or
 * none relevant scores 1), weighted by the row's number of relevant labels.
 */
function weightedLrap(relevant: Uint8Array[], scores: Float64Array[]): number {
  let total = 0;
  let weights = 0;
  for (let i = 0; i < relevant.length; i++) {
    const rel = relevant[i];
    const s = scores[i];
    let count = 0;
    for (const r of rel) count += r;
    let aux = 1;
    if (count > 0 && count < rel.length) {
      let sumRatios = 0;
      for (let j = 0; j < rel.length; j++) {
        if (!rel[j]) continue;
        let rank = 0;
        let above = 0;
        for (let k = 0; k < rel.length; k++) {
          if (s[k] >= s[j]) {
            rank++;
            if (rel[k]) above++;
          }
        }
        sumRatios += above / rank;
      }
      aux = sumRatios / count;
    }
    total += aux * count;
    weights += count;
  }
  return total / weights;
}

/**
 * Label-weighted LRAP of the submission's scores against the answers' labels (cells > 0), as
 * upstream computes it with scikit-learn: rows are matched by sorted fname, answer rows without a
 * label are skipped, and a row predicting the same score everywhere ranks every true label last
 * among equals. scikit-learn refuses NaN scores and cannot negate boolean columns. Columns must
 * match the sample submission exactly.
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansId = answersColumn(ans, "fname");
  if (submission.rowCount !== ans.rowCount) {
    throw new InvalidSubmissionError(
      `Submission has ${submission.rowCount} rows but the answers have ${ans.rowCount}; submit one row per test clip.`,
    );
  }
  if (submission.columns[0] !== "fname") {
    throw new InvalidSubmissionError(`Submission's first column must be "fname"; found ${describeColumns(submission)}.`);
  }
  const classes = submission.columns.slice(1);
  if (classes.length !== CLASS_NAMES.length || classes.some((c, k) => c !== CLASS_NAMES[k])) {
    const k = CLASS_NAMES.findIndex((c, j) => classes[j] !== c);
    const where = k < 0
      ? `it has ${classes.length} class columns instead of ${CLASS_NAMES.length}`
      : `class column ${k + 1} should be "${CLASS_NAMES[k]}" but is ${classes[k] === undefined ? "missing" : JSON.stringify(classes[k])}`;
    throw new InvalidSubmissionError(
      `Submission must have "fname" followed by the ${CLASS_NAMES.length} class columns in the sample submission's order; ${where}.`,
    );
  }
  for (const c of CLASS_NAMES) answersColumn(ans, c);
  const ansOrder = sortOrder(ansId);
  const subOrder = alignToAnswers(submission.data.get("fname")!, ansId, ansOrder, "fname");
  for (const c of CLASS_NAMES) {
    // pandas keeps an all-boolean column boolean, and scikit-learn's `-y_score` fails on it.
    if (submission.data.get(c)!.kind === "bool") {
      throw new InvalidSubmissionError(`Column "${c}" holds booleans; give a numeric score for every class.`);
    }
  }
  const pred = CLASS_NAMES.map((c) => numericInOrder(submission.data.get(c)!, subOrder, c));
  const truth = CLASS_NAMES.map((c) => numericInOrder(ans.data.get(c)!, ansOrder, c));
  for (let k = 0; k < pred.length; k++) {
    const i = pred[k].findIndex((v) => !Number.isFinite(v));
    if (i >= 0) {
      throw new InvalidSubmissionError(
        `Column "${CLASS_NAMES[k]}" holds ${Number.isNaN(pred[k][i]) ? "an empty or NaN cell" : "an infinite value"} (row for fname ${JSON.stringify(String(ansId.values[ansOrder[i]]))}); every score must be a finite number.`,
      );
    }
  }

  const relevant: Uint8Array[] = [];
  const scores: Float64Array[] = [];
  for (let i = 0; i < ans.rowCount; i++) {
    const rel = Uint8Array.from(truth, (col) => (col[i] > 0 ? 1 : 0));
    if (!rel.some((r) => r === 1)) continue;
    relevant.push(rel);
    scores.push(Float64Array.from(pred, (col) => col[i]));
  }
  if (relevant.length === 0) {
    // Upstream then hands scikit-learn empty arrays, which it refuses; the answers are at fault.
    throw new Error("The answers give no clip a label, so lwlrap is undefined.");
  }
  return weightedLrap(relevant, scores);
}

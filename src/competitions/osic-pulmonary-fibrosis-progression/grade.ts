import type { Answers } from "../../core/competition.js";
import { InvalidSubmissionError } from "../../core/errors.js";
import { type Column, type Table, cellAt } from "../../core/table.js";
import { requireTable } from "../../grading/answers.js";
import { numpySum } from "../../metrics/sum.js";
import { numpyQuickArgsort, numpyQuickArgsortBy } from "../../pycompat/numpy-argsort.js";
import { answersColumn, cellText, compareStrings, numericInOrder, submissionColumn } from "../../grading/columns.js";

/** pandas' is_numeric_dtype: integer, float and all-boolean columns count; text and gappy booleans do not. */
function isNumericColumn(col: Column): boolean {
  return col.kind === "int" || col.kind === "float" || col.kind === "bool" || col.kind === "bigint";
}

/** The per-row metric: confidence clipped below at 70, error capped at 1000. */
function laplaceLogLikelihood(actual: number, predicted: number, confidence: number): number {
  const sd = Math.max(confidence, 70);
  const delta = Math.min(Math.abs(actual - predicted), 1000);
  return (-Math.SQRT2 * delta) / sd - Math.log(Math.SQRT2 * sd);
}

/**
 * Mean modified Laplace log-likelihood over each patient's three latest weeks with a known FVC.
 * Like upstream, any subset of the answers' Patient_Weeks is accepted (only graded weeks the
 * submission contains are scored), and a missing Confidence counts as 0 (so as 70).
 */
export function grade(submission: Table, answers: Answers): number {
  const ans = requireTable(answers);
  const ansPw = answersColumn(ans, "Patient_Week");
  const ansFvc = numericInOrder(answersColumn(ans, "FVC"), null, "FVC");
  const ansPatient = answersColumn(ans, "Patient");
  const subPw = submissionColumn(submission, "Patient_Week");
  const subFvcCol = submissionColumn(submission, "FVC");
  const subConfCol = submissionColumn(submission, "Confidence");
  if (ansPw.kind !== "string" || ansPatient.kind !== "string") throw new Error("Answers must hold Patient and Patient_Week as text.");

  const known = new Set<string>();
  for (const v of ansPw.values) if (v !== null) known.add(v);
  for (let i = 0; i < submission.rowCount; i++) {
    const cell = cellAt(subPw, i);
    // numpy's `in` compares a non-text cell with the text ids and never finds it.
    if (typeof cell !== "string" || !known.has(cell)) {
      throw new InvalidSubmissionError(
        `Patient_Week ${cellText(cell)} in data row ${i + 1} is not a test Patient_Week; ids look like "<Patient>_<week>" as in the sample submission.`,
      );
    }
  }
  for (const [name, col] of [["FVC", subFvcCol], ["Confidence", subConfCol]] as const) {
    if (!isNumericColumn(col)) {
      throw new InvalidSubmissionError(`Column "${name}" must hold only numbers (blank cells allowed), but it holds text.`);
    }
  }
  const subFvc = numericInOrder(subFvcCol, null, "FVC");
  const subConf = numericInOrder(subConfCol, null, "Confidence");

  // Each patient's three latest weeks among rows with a known FVC (the others are dummy rows),
  // taken as upstream does: rows sorted by week with numpy's unstable quicksort, then each
  // patient's last three in that order. Which of a week recorded twice comes first there
  // decides, through the next sort, which FVC each of its two submitted rows is compared with.
  const measured = [...Array(ans.rowCount).keys()].filter((i) => !Number.isNaN(ansFvc[i]));
  const weeks = measured.map((i) => {
    const pw = ansPw.values[i]!;
    return Number.parseInt(pw.slice(pw.lastIndexOf("_") + 1), 10);
  });
  const byWeek = numpyQuickArgsort(weeks).map((k) => measured[k]);
  const patientOf = (i: number) => ansPatient.values[i] ?? "";
  const remaining = new Map<string, number>();
  for (const i of byWeek) remaining.set(patientOf(i), (remaining.get(patientOf(i)) ?? 0) + 1);
  const latest = byWeek.filter((i) => {
    const left = remaining.get(patientOf(i))!;
    remaining.set(patientOf(i), left - 1);
    return left <= 3;
  });
  const gradedIds = new Set(latest.map((i) => ansPw.values[i]!));

  // Both sides sorted by Patient_Week (quicksort again), restricted to the weeks both hold, and
  // compared position by position.
  const subKept = [...Array(submission.rowCount).keys()].filter((i) => gradedIds.has(subPw.values[i] as string));
  const subRows = pythonStringQuickSort(subKept, (i) => subPw.values[i] as string);
  const submitted = new Set(subRows.map((i) => subPw.values[i] as string));
  const truthRows = pythonStringQuickSort(latest, (i) => ansPw.values[i]!).filter((i) => submitted.has(ansPw.values[i]!));
  if (truthRows.length !== subRows.length && truthRows.length !== 1 && subRows.length !== 1) {
    // numpy cannot broadcast arrays of different lengths (one of length 1 it can).
    throw new InvalidSubmissionError(
      `The submission's ${subRows.length} graded rows do not pair with the ${truthRows.length} graded answer rows: ` +
        `a Patient_Week the answers record twice needs two rows, as in the sample submission.`,
    );
  }
  const n = truthRows.length === 0 || subRows.length === 0 ? 0 : Math.max(truthRows.length, subRows.length);
  const values = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const s = subRows[subRows.length === 1 ? 0 : k];
    const t = truthRows[truthRows.length === 1 ? 0 : k];
    const conf = Number.isNaN(subConf[s]) ? 0 : subConf[s];
    values[k] = laplaceLogLikelihood(ansFvc[t], subFvc[s], conf);
  }
  // np.mean of nothing is NaN, which upstream reports as the score.
  return n === 0 ? NaN : numpySum(values) / n;
}

/** rows reordered as pandas' default sort_values orders them by a text column (numpy's object quicksort). */
function pythonStringQuickSort(rows: number[], key: (row: number) => string): number[] {
  const keys = rows.map(key);
  return numpyQuickArgsortBy(rows.length, (i, j) => compareStrings(keys[i], keys[j]) < 0).map((k) => rows[k]);
}
